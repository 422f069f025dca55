"""convolution, python_cupy: the cuda rung's own kernel, launched from Python,
as the GPU lesson's CuPy episode would once it writes its own kernel.

CuPy's RawModule compiles kernels/convolution/convolution_tiles.cuh, the file
the C++ cuda rung includes, with NVRTC when the rung is prepared (its
first-call cost): shared-memory tiles of 32 × 128 outputs, 16 a thread down a
column, the weights flipped and packed four rows to a float4 in __constant__
memory (or global memory for kernels above 64 × 64). Only the launch path
differs from `cuda`.
"""
import os

import cupy
import numpy as np

from cuda_source import device_name, kernel_module

REQUIRES = ("cupy",)
DEVICE = "cuda"

THREADS_X, THREADS_Y, STRIP, CHUNK = 32, 8, 16, 4  # the kernel's kConvThreadsX, kConvThreadsY, kConvStrip, kConvChunk
TILE_WIDTH, TILE_HEIGHT = THREADS_X, THREADS_Y * STRIP
CONSTANT_CHUNKS = 1024  # kConvConstantChunks: the float4s __constant__ memory holds


class Rung:
    def prepare(self, inputs, outputs, context):
        self.image, self.output = inputs["image"], outputs["output"]
        kernel = inputs["kernel"]
        self.rows, self.columns = kernel.shape
        self.rows_padded = -(-self.rows // CHUNK) * CHUNK
        # The weights as the kernel reads them: flipped (a convolution reads
        # the kernel backwards), padded with zero rows to whole chunks of 4
        # rows, each chunk's 4 weights of a column side by side.
        flipped = np.zeros((self.rows_padded, self.columns), np.float32)
        flipped[:self.rows] = kernel[::-1, ::-1]
        self.h_weights = np.ascontiguousarray(
            flipped.reshape(self.rows_padded // CHUNK, CHUNK, self.columns).transpose(0, 2, 1))
        self.constant_weights = self.h_weights.size // 4 <= CONSTANT_CHUNKS

        name = f"convolve_strips<{'true' if self.constant_weights else 'false'}>"
        module = kernel_module(os.path.join(context["kernels"], "convolution_tiles.cuh"), [name, "convolution_weights"])
        self.kernel = module.get_function(name)
        if self.constant_weights:
            self.d_weights = cupy.ndarray(self.h_weights.shape, cupy.float32, memptr=module.get_global("convolution_weights"))
        else:
            self.d_weights = cupy.empty(self.h_weights.shape, cupy.float32)
        height, width = self.image.shape
        self.shared_bytes = (TILE_HEIGHT + self.rows_padded - 1) * (TILE_WIDTH + self.columns - 1) * 4
        self.kernel.max_dynamic_shared_size_bytes = self.shared_bytes  # above 48 KiB a kernel must ask
        self.d_image = cupy.empty(self.image.shape, cupy.float32)
        self.d_output = cupy.empty(self.output.shape, cupy.float32)
        out_height, out_width = self.output.shape
        self.grid = (-(-out_width // TILE_WIDTH), -(-out_height // TILE_HEIGHT))

    def upload(self):
        self.d_image.set(self.image)
        self.d_weights.set(self.h_weights)

    def compute(self):
        height, width = self.image.shape
        out_height, out_width = self.output.shape
        i32 = np.int32
        self.kernel(self.grid, (THREADS_X, THREADS_Y),
                    (self.d_image, i32(height), i32(width), self.d_weights, i32(self.rows), i32(self.rows_padded),
                     i32(self.columns), self.d_output, i32(out_height), i32(out_width)),
                    shared_mem=self.shared_bytes)

    def download(self):
        self.d_output.get(out=self.output)

    def device_name(self):
        return device_name()
