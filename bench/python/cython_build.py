"""Compiles a Cython (or plain Python) file into an extension module and
imports it, for the python_cython rungs: what `cythonize` and `setup.py
build_ext` do, done when the rung loads (its first-call cost). The module
is built in a cache folder of its own (LADDER_CYTHON_CACHE, else
~/.cache/hpc-ladder/cython), one for each text of the source, so that the
participant's folder gets no build files and an edited file is built anew.
"""
import hashlib
import importlib.util
import os
import shutil
import sys

import numpy as np


def compile_module(source, name, openmp=False):
    with open(source, "rb") as source_file:
        text = source_file.read()
    key = hashlib.sha256(text + name.encode() + bytes([openmp])).hexdigest()[:16]
    cache = os.path.join(os.environ.get("LADDER_CYTHON_CACHE") or os.path.expanduser("~/.cache/hpc-ladder/cython"), key)
    built = [f for f in os.listdir(cache) if f.startswith(name + ".") and f.endswith(".so")] if os.path.isdir(cache) else []
    if not built:
        from Cython.Build import cythonize
        from setuptools import Extension
        from setuptools.dist import Distribution

        work = cache + ".building"
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        copy = os.path.join(work, name + os.path.splitext(source)[1])
        shutil.copyfile(source, copy)
        flags = ["-O3", "-fopenmp"] if openmp else ["-O3"]
        extension = Extension(name, [copy], include_dirs=[np.get_include()], extra_compile_args=flags,
                              extra_link_args=["-fopenmp"] if openmp else [])
        distribution = Distribution({"ext_modules": cythonize([extension], language_level=3, quiet=True)})
        build = distribution.get_command_obj("build_ext")
        build.build_lib, build.build_temp = work, os.path.join(work, "temp")
        build.ensure_finalized()
        build.run()
        os.replace(work, cache)  # whole, or not there: a build that broke off is never imported
        built = [f for f in os.listdir(cache) if f.startswith(name + ".") and f.endswith(".so")]
    spec = importlib.util.spec_from_file_location(name, os.path.join(cache, built[0]))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
