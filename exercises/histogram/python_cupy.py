# ==== exercise only (between "# ====" lines: the exercise's own text; all other lines are the solution's)
"""histogram, python_cupy: your shared-memory kernel, launched from Python
(task sheet, the Python step). CuPy's RawModule compiles your
kernels/histogram_shared.cuh (the cuda step's kernel) with NVRTC; you write
the launch: the grid of resident blocks, and the counts zeroed each call.
"""
# ==== end
import os

import cupy

from cuda_source import device_name, kernel_module

REQUIRES = ("cupy",)
DEVICE = "cuda"

THREADS = 512  # the kernel's kHistogramThreads


class Rung:
    def prepare(self, inputs, outputs, context):
        # ==== exercise only
        with open(os.path.join(context["kernels"], "histogram_shared.cuh")) as kernel_file:
            if "#define LADDER_TODO_CUDA_KERNEL" in kernel_file.read():
                raise NotImplementedError("python_cupy: write the kernel in exercises/histogram/kernels/"
                                          "histogram_shared.cuh first (the cuda step), and delete its TODO #define")
        # ==== end
        module = kernel_module(os.path.join(context["kernels"], "histogram_shared.cuh"), ["histogram_shared"])
        self.kernel = module.get_function("histogram_shared")
        self.values, self.counts = inputs["values"], outputs["counts"]
        self.d_values = cupy.empty(self.values.shape, cupy.uint8)
        # ==== exercise only
        self.d_counts = cupy.zeros(256, cupy.uint32)
        # ==== end
        # ==== yours
        # TODO: self.blocks: the blocks resident on the GPU at once (its
        # properties: cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id),
        # "multiProcessorCount" and "maxThreadsPerMultiProcessor"), but never
        # more than the values need, and at least one.
        raise NotImplementedError("python_cupy: choose the blocks in prepare() of exercises/histogram/python_cupy.py")
        # ==== end

    def upload(self):
        self.d_values.set(self.values)

    def compute(self):
        # ==== yours
        # TODO: zero the counts (compute runs again and again: each call
        # counts afresh), then launch: self.kernel((blocks,), (THREADS,),
        # (values, cupy.uint64(n), counts)). How much of what the cuda step's
        # row takes is this Python launch?
        pass
        # ==== end

    def download(self):
        # ==== exercise only
        self.d_counts.get(out=self.counts)
        # ==== end

    def device_name(self):
        return device_name()
