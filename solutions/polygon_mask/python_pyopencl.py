"""polygon_mask, python_pyopencl: the opencl rung's own kernel, from Python.

PyOpenCL builds kernels/polygon_mask/polygon_mask.cl, the file the C++
opencl rung builds, and launches polygon_mask_per_pixel with the same
work-groups (up to 256 work-items of 4 pixels each, tiling each row). The
kernel is the same: only the host side is Python, so this row against
`opencl` is what the host language costs a launch (the course's last step,
"PyOpenCL on a GPU").
"""
import os

import numpy as np
import pyopencl as cl

from opencl_device import chosen_device

REQUIRES = ("pyopencl",)
DEVICE = "opencl"

PIXELS_PER_ITEM = 4  # neighbouring pixels per work-item: the kernel's PIXELS_PER_ITEM


class Rung:
    def prepare(self, inputs, outputs, context):
        self.device = chosen_device(context)  # the device ladder chose for the opencl rungs
        self.context = cl.Context([self.device])
        self.queue = cl.CommandQueue(self.context, properties=cl.command_queue_properties.PROFILING_ENABLE)
        with open(os.path.join(context["kernels"], "polygon_mask.cl")) as kernel_file:
            program = cl.Program(self.context, kernel_file.read()).build(options=[f"-DPIXELS_PER_ITEM={PIXELS_PER_ITEM}"])
        self.kernel = cl.Kernel(program, "polygon_mask_per_pixel")

        self.vertices, self.mask = inputs["vertices"], outputs["mask"]
        height, width = self.mask.shape
        self.d_vertices = cl.Buffer(self.context, cl.mem_flags.READ_ONLY, self.vertices.nbytes)
        self.d_mask = cl.Buffer(self.context, cl.mem_flags.WRITE_ONLY, self.mask.nbytes)
        # The launch, as the C++ rung computes it: narrow rows get narrower groups.
        items_per_row = -(-width // PIXELS_PER_ITEM)
        self.local = min(256, (items_per_row + 31) // 32 * 32)
        groups_per_row = -(-items_per_row // self.local)
        self.global_size = height * groups_per_row * self.local
        self.kernel.set_args(self.d_vertices, np.uint32(len(self.vertices)), np.uint32(width),
                             np.uint32(groups_per_row), self.d_mask)

    def upload(self):
        cl.enqueue_copy(self.queue, self.d_vertices, np.ascontiguousarray(self.vertices))

    def compute(self):
        return cl.enqueue_nd_range_kernel(self.queue, self.kernel, (self.global_size,), (self.local,))

    def download(self):
        cl.enqueue_copy(self.queue, self.mask, self.d_mask)

    def device_name(self):
        return self.device.name
