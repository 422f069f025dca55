"""primes, python_cupy: the cuda_trial rung's own kernel, launched from Python.

CuPy's RawModule compiles kernels/primes/primes_trial.cuh (the GPU lesson's
answer: one thread a number, trial division up to its square root), the
file the C++ cuda_trial rung includes, with NVRTC when the rung is prepared
(its first-call cost), and launches it with the same blocks of 256 threads.
Only the launch path differs from cuda_trial.
"""
import os

import cupy

from cuda_source import device_name, kernel_module

REQUIRES = ("cupy",)
DEVICE = "cuda"

THREADS_PER_BLOCK = 256


class Rung:
    def prepare(self, inputs, outputs, context):
        module = kernel_module(os.path.join(context["kernels"], "primes_trial.cuh"), ["primes_trial"])
        self.kernel = module.get_function("primes_trial")
        self.flags = outputs["flags"]
        self.d_flags = cupy.empty(self.flags.shape, cupy.uint8)
        self.blocks = -(-self.flags.size // THREADS_PER_BLOCK)

    def compute(self):
        if self.blocks:  # n = 0: nothing to classify
            self.kernel((self.blocks,), (THREADS_PER_BLOCK,), (cupy.uint32(self.flags.size), self.d_flags))

    def download(self):
        self.d_flags.get(out=self.flags)

    def device_name(self):
        return device_name()
