"""spot_finding, python_pyopencl: the opencl rung's own kernel, from Python,
as sidewinder's notes find spots with PyOpenCL.

PyOpenCL builds kernels/spot_finding/dispersion.cl, the file the C++ opencl
rung builds, for the run's k (-DRADIUS=k and the tile's size), and launches
dispersion_mask with the same work-groups: 32 × 8 work-items a 32 × 32 tile
of every frame, each tile and its halo loaded into local memory together.
The kernel is the same: only the host side is Python.
"""
import math
import os

import numpy as np
import pyopencl as cl

from opencl_device import chosen_device

REQUIRES = ("pyopencl",)
DEVICE = "opencl"

TILE_WIDTH, TILE_HEIGHT, GROUP_ROWS = 32, 32, 8  # the kernel's TILE_W, TILE_H and GROUP_ROWS


class Rung:
    def prepare(self, inputs, outputs, context):
        self.device = chosen_device(context)  # the device ladder chose for the opencl rungs
        if not self.device.double_fp_config:
            raise RuntimeError("DIALS' test is evaluated in double precision; this OpenCL device has no cl_khr_fp64")
        self.context = cl.Context([self.device])
        self.queue = cl.CommandQueue(self.context, properties=cl.command_queue_properties.PROFILING_ENABLE)

        params = context["params"]
        k = int(params.get("kernel_size", 3))
        self.image, self.mask, self.signal = inputs["image"], inputs["mask"], outputs["signal"]
        frames, height, width = (1, *self.image.shape) if self.image.ndim == 2 else self.image.shape
        options = [f"-DRADIUS={k}", f"-DTILE_W={TILE_WIDTH}", f"-DTILE_H={TILE_HEIGHT}", f"-DGROUP_ROWS={GROUP_ROWS}"]
        with open(os.path.join(context["kernels"], "dispersion.cl")) as kernel_file:
            program = cl.Program(self.context, kernel_file.read()).build(options=options)
        self.kernel = cl.Kernel(program, "dispersion_mask")

        self.d_image = cl.Buffer(self.context, cl.mem_flags.READ_ONLY, self.image.nbytes)
        self.d_mask = cl.Buffer(self.context, cl.mem_flags.READ_ONLY, self.mask.nbytes)
        self.d_signal = cl.Buffer(self.context, cl.mem_flags.WRITE_ONLY, self.signal.nbytes)
        # The launch: one group per tile of each frame, TILE_W × GROUP_ROWS work-items.
        self.global_size = (-(-width // TILE_WIDTH) * TILE_WIDTH, -(-height // TILE_HEIGHT) * GROUP_ROWS, frames)
        self.local_size = (TILE_WIDTH, GROUP_ROWS, 1)
        window = (2 * k + 1) ** 2
        self.kernel.set_args(self.d_image, self.d_mask, self.d_signal, np.int32(height), np.int32(width),
                             np.uint32(params.get("min_count", 2)), np.float64(params.get("threshold", 0)),
                             np.float64(params.get("sigma_b", 6)), np.float64(params.get("sigma_s", 3)),
                             np.float64(math.sqrt(2 * (window - 1))))

    def upload(self):
        cl.enqueue_copy(self.queue, self.d_image, self.image)
        cl.enqueue_copy(self.queue, self.d_mask, self.mask)

    def compute(self):
        return cl.enqueue_nd_range_kernel(self.queue, self.kernel, self.global_size, self.local_size)

    def download(self):
        cl.enqueue_copy(self.queue, self.signal, self.d_signal)

    def device_name(self):
        return self.device.name
