#!/usr/bin/env python3
"""Every kernel file a python_cupy rung hands to NVRTC compiles there, and
each of its kernels is found by its C++ name, where NVRTC is (the CUDA
toolkit; no GPU needed): bench/python/cuda_source.py's text of the file
(CCCL's headers for the host ones, the repository's own headers put in
place), compiled for sm_90 as CuPy compiles it, each non-template
__global__ function's lowered name asked for and found among the PTX's
entries. So a change to a kernel file that NVRTC cannot take (a host
header, host code) fails here, on a machine without a GPU, and not first
on the GPU machine. Exits 77 (skipped) where there is no libnvrtc.

    test_cuda_sources.py SOURCE_DIR
"""
import ctypes
import glob
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(root, "bench", "python"))
from cuda_source import nvrtc_source  # noqa: E402

cuda = os.environ.get("CUDA_PATH") or os.environ.get("CUDA_HOME") or "/usr/local/cuda"
nvrtc = None
for library in (os.path.join(cuda, "lib64", "libnvrtc.so"), "libnvrtc.so"):
    try:
        nvrtc = ctypes.CDLL(library)
        break
    except OSError:
        pass
if nvrtc is None:
    print(f"skipped: no libnvrtc (CUDA_PATH={cuda})")
    sys.exit(77)
nvrtc.nvrtcGetErrorString.restype = ctypes.c_char_p
# CuPy gives NVRTC its CCCL (cuda/std/...) and the toolkit's include folder; the toolkit's CCCL is under include/cccl.
includes = [f"-I{folder}" for folder in (os.path.join(cuda, "include"), os.path.join(cuda, "include", "cccl"))
            if os.path.isdir(folder)]


def compile_file(path, names):
    """NVRTC's log and PTX of the file, and each name's lowered name."""
    program = ctypes.c_void_p()
    source = nvrtc_source(path).encode()
    assert nvrtc.nvrtcCreateProgram(ctypes.byref(program), source, os.path.basename(path).encode(), 0, None, None) == 0
    for name in names:
        assert nvrtc.nvrtcAddNameExpression(program, name.encode()) == 0
    options = [o.encode() for o in ["-std=c++17", "--gpu-architecture=compute_90", *includes]]
    status = nvrtc.nvrtcCompileProgram(program, len(options), (ctypes.c_char_p * len(options))(*options))
    size = ctypes.c_size_t()
    nvrtc.nvrtcGetProgramLogSize(program, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetProgramLog(program, log)
    if status != 0:
        return log.value.decode(errors="replace"), None, {}
    nvrtc.nvrtcGetPTXSize(program, ctypes.byref(size))
    ptx = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetPTX(program, ptx)
    lowered = {}
    for name in names:
        pointer = ctypes.c_char_p()
        if nvrtc.nvrtcGetLoweredName(program, name.encode(), ctypes.byref(pointer)) == 0:
            lowered[name] = pointer.value.decode()
    return log.value.decode(errors="replace"), ptx.value.decode(), lowered


# The kernel files the python_cupy rungs name (kernel_module(os.path.join(context["kernels"], "FILE"), ...)).
rungs = sorted(glob.glob(os.path.join(root, "solutions", "*", "python_cupy.py")) +
               glob.glob(os.path.join(root, "exercises", "*", "python_cupy.py")))
files = set()
for rung in rungs:
    exercise = os.path.basename(os.path.dirname(rung))
    with open(rung) as rung_file:
        named = re.findall(r'context\["kernels"\], "([^"]+)"', rung_file.read())
    if not named:
        sys.exit(f"{os.path.relpath(rung, root)}: names no kernel file (kernel_module(os.path.join(context['kernels'], ...)))")
    files |= {os.path.join(root, "kernels", exercise, name) for name in named}
if len(files) < 5:
    sys.exit(f"found {len(files)} kernel files among {len(rungs)} python_cupy rungs: the search is broken")

failures = 0
for path in sorted(files):
    with open(path) as kernel_file:
        text = kernel_file.read()
    # The non-template kernels (a template's instances are the rung's to ask for).
    kernels = [name for prefix, name in re.findall(
        r"(template\s*<[^;{]*>\s*)?__global__\s+void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(", text)
               if not prefix]
    log, ptx, lowered = compile_file(path, kernels)
    label = os.path.relpath(path, root)
    if ptx is None:
        failures += 1
        print(f"FAIL {label}: NVRTC cannot compile it:\n{log}")
        continue
    entries = set(re.findall(r"\.entry\s+(\w+)", ptx))
    missing = [name for name in kernels if lowered.get(name) not in entries]
    if missing:
        failures += 1
        print(f"FAIL {label}: no entry for {', '.join(missing)} among {sorted(entries)}")
        continue
    print(f"ok   {label}: compiles; {len(kernels)} kernels found by name ({', '.join(kernels) or 'templates only'})")
print(f"{len(files) - failures} of {len(files)} kernel files compile under NVRTC")
sys.exit(1 if failures else 0)
