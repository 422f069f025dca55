"""primes, python_numba_cuda: the GPU lesson's own step, a kernel in Python.

The same idea as cuda_trial, written as the lesson writes it: a Python
function compiled for the GPU by numba.cuda.jit (at its first launch, the
row's first-call cost), one thread a number, trial division up to its
square root, launched with blocks of 256 threads over all n numbers. 0 and 1
are not prime (the lesson's CPU code marks them prime: a mistake).
"""
import numpy as np
from numba import cuda

REQUIRES = ("numba", "numba.cuda")
DEVICE = "cuda"

THREADS_PER_BLOCK = 256


@cuda.jit
def primes_trial(flags):
    k = cuda.grid(1)
    if k >= flags.size:  # the last block overhangs n
        return
    prime = k >= 2
    d = 2
    while d * d <= k:
        if k % d == 0:
            prime = False
            break
        d += 1
    flags[k] = prime


class Rung:
    def prepare(self, inputs, outputs, context):
        self.flags = outputs["flags"]
        self.d_flags = cuda.device_array(self.flags.shape, np.uint8)
        self.blocks = -(-self.flags.size // THREADS_PER_BLOCK)

    def compute(self):
        if self.blocks:
            primes_trial[self.blocks, THREADS_PER_BLOCK](self.d_flags)

    def download(self):
        self.d_flags.copy_to_host(self.flags)

    def device_name(self):
        name = cuda.get_current_device().name
        return name.decode() if isinstance(name, bytes) else name
