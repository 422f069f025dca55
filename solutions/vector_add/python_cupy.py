"""vector_add, python_cupy: the cuda rung's own kernel, launched from Python.

CuPy's RawModule compiles kernels/vector_add/vector_add.cuh, the file the
C++ cuda rung includes, with NVRTC when the rung is prepared (its first-call
cost), and launches vector_add with the same blocks of 256 threads, each
thread one group of four floats. Only the launch path differs from `cuda`:
this row against that one is what the host language costs.
"""
import os

import cupy

from cuda_source import device_name, kernel_module

REQUIRES = ("cupy",)
DEVICE = "cuda"

THREADS_PER_BLOCK = 256


class Rung:
    def prepare(self, inputs, outputs, context):
        module = kernel_module(os.path.join(context["kernels"], "vector_add.cuh"), ["vector_add"])
        self.kernel = module.get_function("vector_add")
        self.a, self.b, self.c = inputs["a"], inputs["b"], outputs["c"]
        self.d_a, self.d_b, self.d_c = (cupy.empty(self.c.shape, cupy.float32) for _ in range(3))
        groups = -(-self.c.size // 4)
        self.blocks = -(-groups // THREADS_PER_BLOCK)

    def upload(self):
        self.d_a.set(self.a)
        self.d_b.set(self.b)

    def compute(self):
        self.kernel((self.blocks,), (THREADS_PER_BLOCK,), (self.d_a, self.d_b, self.d_c, cupy.uint64(self.c.size)))

    def download(self):
        self.d_c.get(out=self.c)

    def device_name(self):
        return device_name()
