"""kappa_sigma, python_cupy: the cuda rung's own kernels, launched from Python.

CuPy's RawModule compiles kernels/kappa_sigma/kappa_sigma.cuh, the file the
C++ cuda rung includes (and clip_state.cuh, which it includes), with NVRTC
when the rung is prepared (its first-call cost). The loop is the cuda
rung's: the loop's state stays on the device; an iteration queues five
kernels (survey, then three radix-select digits of the median) and copies
nothing; every four iterations the host reads the 4-byte `done` flag.
A launch from Python costs more host time than one from C++, and here the
host queues some 20 kernels between two reads of the flag: this row
against `cuda` is what that costs.
"""
import os

import cupy
import cupyx
import numpy as np

from cuda_source import device_name, kernel_module

REQUIRES = ("cupy",)
DEVICE = "cuda"

THREADS = 256  # kClipThreads
BUCKETS = 2048  # kClipBuckets
ITERATIONS_PER_CHECK = 4  # as cuda.cu's kIterationsPerCheck
KERNELS = ("clip_start", "clip_survey", "clip_refine", "clip_select", "clip_mask")
# clip_state.cuh's struct ClipState, field for field: where `done` is.
CLIP_STATE = np.dtype([("lower", "f8"), ("upper", "f8"), ("pass_lower", "f8"), ("pass_upper", "f8"),
                       ("median", "f8"), ("mean", "f8"), ("std", "f8"), ("shift", "f8"), ("count", "u4"),
                       ("iterations", "u4"), ("done", "u4"), ("unused", "u4"), ("prefix", "u4", 2),
                       ("rank", "u4", 2)])


class Rung:
    def prepare(self, inputs, outputs, context):
        module = kernel_module(os.path.join(context["kernels"], "kappa_sigma.cuh"), KERNELS)
        self.start, self.survey, self.refine, self.select, self.mask_kernel = map(module.get_function, KERNELS)
        self.image, self.mask, self.statistics = inputs["image"], outputs["mask"], outputs["statistics"]
        self.kappa = np.float64(context["params"].get("kappa", 3))
        self.n = np.uint32(self.image.size)  # at most 2^31 - 1: the problem refuses more
        # As many blocks as the device holds at once (the kernels' grid-stride
        # loops cover any n), one block sum each: the same grid for every pass.
        properties = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
        per_sm = cupy.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(self.survey.kernel.ptr, THREADS, 0)
        needed = -(-self.image.size // THREADS)
        self.blocks = max(1, min(per_sm * properties["multiProcessorCount"], needed))

        self.d_image = cupy.empty(self.image.shape, cupy.float32)
        self.d_mask = cupy.empty(self.mask.shape, cupy.uint8)
        self.d_statistics = cupy.empty(self.statistics.shape, cupy.float64)
        self.d_state = cupy.zeros(CLIP_STATE.itemsize, cupy.uint8)
        done_at = CLIP_STATE.fields["done"][1]
        self.d_done = self.d_state[done_at:done_at + 4].view(cupy.uint32)
        self.h_done = cupyx.empty_pinned(1, np.uint32)  # pinned: the flag's copy is a true async copy
        self.d_partials = cupy.empty(3 * self.blocks, cupy.float64)
        # clip_select clears the histograms after reading them: zeroed once.
        self.d_counts = cupy.zeros(2 * BUCKETS, cupy.uint32)

    def upload(self):
        self.d_image.set(self.image)

    def compute(self):
        self.start((1,), (1,), (self.d_image, self.n, self.d_state))
        # Each iteration removes at least one value, so there are at most n + 1.
        iterations = 0
        while True:
            if iterations > int(self.n) + 1:
                raise RuntimeError("kappa_sigma python_cupy: the loop did not end")
            for _ in range(ITERATIONS_PER_CHECK):
                self.iterate()
            iterations += ITERATIONS_PER_CHECK
            # The only copy inside the loop: has it ended? (4 bytes)
            self.d_done.get(out=self.h_done)  # waits for the copy, as cuda.cu's stream synchronise
            if self.h_done[0]:
                break
        self.mask_kernel((self.blocks,), (THREADS,), (self.d_image, self.n, self.d_state, self.d_mask,
                                                      self.d_statistics))

    def iterate(self):
        blocks = (self.blocks,)
        self.survey(blocks, (THREADS,), (self.d_image, self.n, self.d_state, self.d_partials, self.d_counts))
        self.select_digit(0)
        for digit in (1, 2):
            self.refine(blocks, (THREADS,), (self.d_image, self.n, self.d_state, self.d_counts, np.int32(digit)))
            self.select_digit(digit)

    def select_digit(self, digit):
        self.select((1,), (THREADS,), (self.d_state, self.d_partials, np.uint32(self.blocks), self.d_counts,
                                       np.int32(digit), self.kappa))

    def download(self):
        self.d_mask.get(out=self.mask)
        self.d_statistics.get(out=self.statistics)

    def device_name(self):
        return device_name()
