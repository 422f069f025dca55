"""polygon_mask, python_cupy: the cuda rung's own kernel, launched from Python.

CuPy's RawModule compiles kernels/polygon_mask/polygon_mask.cuh, the file
the C++ cuda rung includes, with NVRTC when the rung is prepared (its
first-call cost). The vertices go into the kernel's __constant__ array and
polygon_mask_per_pixel runs with the cuda rung's launch: blocks of up to 256
threads of 4 pixels each, tiling each row. Only the launch path differs.
"""
import os

import cupy

from cuda_source import device_name, kernel_module

REQUIRES = ("cupy",)
DEVICE = "cuda"

PIXELS_PER_THREAD = 4  # the kernel's kPixelsPerThread


class Rung:
    def prepare(self, inputs, outputs, context):
        module = kernel_module(os.path.join(context["kernels"], "polygon_mask.cuh"),
                               ["polygon_mask_per_pixel", "c_polygon_vertices"])
        self.kernel = module.get_function("polygon_mask_per_pixel")
        self.c_vertices = module.get_global("c_polygon_vertices")
        self.vertices, self.mask = inputs["vertices"], outputs["mask"]
        height, width = self.mask.shape
        self.d_mask = cupy.empty(self.mask.shape, cupy.uint8)
        threads_per_row = -(-width // PIXELS_PER_THREAD)
        self.threads = min(256, (threads_per_row + 31) // 32 * 32)
        self.blocks_per_row = -(-threads_per_row // self.threads)
        self.blocks = height * self.blocks_per_row

    def upload(self):
        vertices = cupy.ndarray(self.vertices.shape, cupy.float64, memptr=self.c_vertices)  # the constant array, as an array
        vertices.set(self.vertices)

    def compute(self):
        height, width = self.mask.shape
        self.kernel((self.blocks,), (self.threads,),
                    (cupy.uint32(len(self.vertices)), cupy.uint32(width), cupy.uint32(self.blocks_per_row), self.d_mask))

    def download(self):
        self.d_mask.get(out=self.mask)

    def device_name(self):
        return device_name()
