"""polygon_mask, python_cython_prange: python_cython's rows on OpenMP's threads.

One change from python_cython: the loop over the rows is Cython's prange
(an OpenMP parallel for, built with -fopenmp), the openmp rung's idea; each
row's crossings go into a scratch row of its own. The course's "Cython with
OpenMP" step. The threads follow `ladder run --threads N` (OMP_NUM_THREADS).
"""
import os

from cython_build import compile_module

REQUIRES = ("Cython", "setuptools")

polygon_mask_cython = compile_module(os.path.join(os.path.dirname(__file__), "polygon_mask_cython.pyx"),
                                     "polygon_mask_cython_openmp", openmp=True)


class Rung:
    def prepare(self, inputs, outputs, context):
        self.vertices, self.mask = inputs["vertices"], outputs["mask"]

    def compute(self):
        polygon_mask_cython.polygon_mask_prange(self.vertices, self.mask)
