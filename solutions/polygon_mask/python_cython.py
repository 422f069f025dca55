"""polygon_mask, python_cython: the serial rung's scanline in Cython, with C types.

polygon_mask_cython.pyx beside this file, compiled to C and to an extension
module when the rung loads (the row's first-call cost; cached by the file's
text afterwards). Every variable has a C type and the arrays are typed
memoryviews, so the loops touch no Python object: the course's "Cython + C"
step, the same algorithm as `serial` and `python_numba`.
"""
import os

from cython_build import compile_module

REQUIRES = ("Cython", "setuptools")

polygon_mask_cython = compile_module(os.path.join(os.path.dirname(__file__), "polygon_mask_cython.pyx"),
                                     "polygon_mask_cython")


class Rung:
    def prepare(self, inputs, outputs, context):
        self.vertices, self.mask = inputs["vertices"], outputs["mask"]

    def compute(self):
        polygon_mask_cython.polygon_mask(self.vertices, self.mask)
