"""The C++ cuda rungs' own kernel files, compiled at run time by NVRTC
through CuPy, for the python_cupy rungs: the same kernels, the same names,
only the host side in Python.

NVRTC compiles device code alone and has none of the host C++ library's
headers: the kernels' <cstddef> and <cstdint> become CCCL's own
(<cuda/std/...>, which CuPy hands to NVRTC), with the names the kernels use
(std::size_t, std::uint8_t, ...) in std, as the host headers have them.
The repository's own headers that a kernel file includes
("kernels/kappa_sigma/clip_state.cuh") are put in its place, once each, as
the preprocessor would: NVRTC is given one text, not the repository's
folders. Nothing else in the files changes.
"""
import os
import re

HOST_HEADERS = {"<cstddef>": "<cuda/std/cstddef>", "<cstdint>": "<cuda/std/cstdint>"}
STD_NAMES = ("size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t")
OWN_INCLUDE = re.compile(r'^#include "([^"]+)"[^\n]*$', re.MULTILINE)


def repository_root(path):
    """The folder that kernels/<exercise>/<file> is in: where the files'
    own includes are found."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(path))))


def _file_text(path, root, included):
    with open(path) as kernel_file:
        source = kernel_file.read()
    for host in HOST_HEADERS:
        source = source.replace(f"#include {host}", "")
    source = source.replace("#pragma once", "")
    name = os.path.relpath(path, root)

    def own_header(match):
        header = os.path.join(root, match.group(1))
        if header in included:  # #pragma once
            return ""
        included.add(header)
        resume = source.count("\n", 0, match.end()) + 2  # the line after the #include
        return f'#line 1 "{match.group(1)}"\n' + _file_text(header, root, included) + f'\n#line {resume} "{name}"'

    return OWN_INCLUDE.sub(own_header, source)


def nvrtc_source(path):
    """The kernel file, with the repository's headers it includes, as NVRTC
    can compile it (errors still name the files and lines)."""
    root = repository_root(path)
    prelude = "".join(f"#include {device}\n" for device in HOST_HEADERS.values())
    prelude += "namespace std {\n" + "".join(f"using cuda::std::{name};\n" for name in STD_NAMES) + "}\n"
    return prelude + f'#line 1 "{os.path.relpath(path, root)}"\n' + _file_text(path, root, {os.path.abspath(path)})


def kernel_module(path, names):
    """A CuPy RawModule of the kernel file, its kernels and __constant__
    variables found by their C++ names (`names`)."""
    import cupy  # here: nvrtc_source is of use (and tested) where CuPy is not

    return cupy.RawModule(code=nvrtc_source(path), options=("-std=c++17",), name_expressions=list(names))


def device_name():
    import cupy

    return cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)["name"].decode()
