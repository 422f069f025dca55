# ==== exercise only (between "# ====" lines: the exercise's own text; all other lines are the solution's)
"""primes, python_numba_cuda: the GPU lesson's challenge, a CUDA kernel
written in Python (task sheet, the Python step). You write the kernel,
compiled for the GPU by numba.cuda.jit at its first launch, and its launch:
one thread a number k, trial division by 2, 3, ... while d * d <= k.
"""
# ==== end
import numpy as np
from numba import cuda

REQUIRES = ("numba", "numba.cuda")
DEVICE = "cuda"

THREADS_PER_BLOCK = 256


# ==== yours
# TODO: @cuda.jit def primes_trial(flags): k = cuda.grid(1); a thread whose
# k is past the end returns at once (why are there such threads?); flags[k]
# is 1 exactly when k is prime. Are 0 and 1 prime? The lesson's CPU code
# says yes: what does the check say?
primes_trial = None
# ==== end


class Rung:
    def prepare(self, inputs, outputs, context):
        self.flags = outputs["flags"]
        self.d_flags = cuda.device_array(self.flags.shape, np.uint8)
        # ==== yours
        # TODO: self.blocks, enough blocks of THREADS_PER_BLOCK threads for every number.
        self.blocks = 0
        # ==== end

    def compute(self):
        # ==== exercise only
        if primes_trial is None:
            raise NotImplementedError("python_numba_cuda: write the kernel primes_trial in exercises/primes/python_numba_cuda.py")
        # ==== end
        if self.blocks:
            # ==== yours
            # TODO: the launch: kernel[blocks, threads_per_block](arguments).
            pass
            # ==== end

    def download(self):
        self.d_flags.copy_to_host(self.flags)

    def device_name(self):
        name = cuda.get_current_device().name
        return name.decode() if isinstance(name, bytes) else name
