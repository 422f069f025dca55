"""polygon_mask, python_cython_tuples: python_loops.py, compiled unchanged.

Cython compiles the pure-Python rung's file as it is, tuples and all, into
C and an extension module when the rung loads (its first-call cost; cached
by the file's text afterwards). Nothing is typed, so every value is still a
Python object: what compiling alone buys (the course's "Cython with tuples,
4x just by compiling"). python_cython then gives the values C types.
"""
import os

from cython_build import compile_module

REQUIRES = ("Cython", "setuptools")

compiled_loops = compile_module(os.path.join(os.path.dirname(__file__), "python_loops.py"), "polygon_mask_loops")
Rung = compiled_loops.Rung
