"""The C++ cuda rungs' own kernel files, compiled at run time by NVRTC
through CuPy, for the python_cupy rungs: the same kernels, the same names,
only the host side in Python.

NVRTC compiles device code alone and has none of the host C++ library's
headers: the kernels' <cstddef> and <cstdint> become CCCL's own
(<cuda/std/...>, which CuPy hands to NVRTC), with the names the kernels use
(std::size_t, std::uint8_t, ...) in std, as the host headers have them.
Nothing else in the file changes.
"""
import os

import cupy

HOST_HEADERS = {"<cstddef>": "<cuda/std/cstddef>", "<cstdint>": "<cuda/std/cstdint>"}
STD_NAMES = ("size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t")


def nvrtc_source(path):
    """The kernel file as NVRTC can compile it."""
    with open(path) as kernel_file:
        source = kernel_file.read()
    for host, device in HOST_HEADERS.items():
        source = source.replace(f"#include {host}", "")
    prelude = "".join(f"#include {device}\n" for device in HOST_HEADERS.values())
    prelude += "namespace std {\n" + "".join(f"using cuda::std::{name};\n" for name in STD_NAMES) + "}\n"
    return prelude + f'#line 1 "{os.path.basename(path)}"\n' + source.replace("#pragma once", "")


def kernel_module(path, names):
    """A CuPy RawModule of the kernel file, its kernels and __constant__
    variables found by their C++ names (`names`)."""
    return cupy.RawModule(code=nvrtc_source(path), options=("-std=c++17",), name_expressions=list(names))


def device_name():
    return cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)["name"].decode()
