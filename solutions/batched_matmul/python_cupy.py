"""batched_matmul, python_cupy: the cuda rung's own kernels, launched from Python.

CuPy's RawModule compiles kernels/batched_matmul/batched_matmul.cuh, the
file the C++ cuda rung includes, with NVRTC when the rung is prepared (its
first-call cost). As in `cuda`: a thread per element of c below 64 outputs
a pair; from there on a block of 256 threads takes whole pairs into shared
memory and each thread computes a 4 × 4 tile of c in registers. The
packing (pairs a block, where b starts in shared memory) is the kernel
file's own matmul_packing, worked out here in Python and handed to the
kernel as the C struct it takes. Only the launch path differs from `cuda`.
"""
import os

import cupy
import numpy as np

from cuda_source import device_name, kernel_module

REQUIRES = ("cupy",)
DEVICE = "cuda"

THREADS = 256  # the kernel's kMatmulThreads
TILE = 4  # kTile
SHARED_FLOATS = 48 * 1024 // 4  # kMatmulSharedFloats: without opting in to more
TILES_FROM_OUTPUTS = 64  # m p at and above which a thread takes a 4 × 4 tile of c (cuda.cu)
# struct MatmulPacking { unsigned pairs, b_at, shared_floats; }, passed by value.
PACKING = np.dtype([("pairs", np.uint32), ("b_at", np.uint32), ("shared_floats", np.uint32)])


def round_up_to_tile(x):
    return -(-x // TILE) * TILE


def matmul_packing(m, n, p):
    """batched_matmul.cuh's matmul_packing, line for line."""
    threads_per_pair = round_up_to_tile(m) // TILE * (round_up_to_tile(p) // TILE)
    floats_per_pair = m * (n + 1) + n * round_up_to_tile(p) + TILE  # TILE: the alignment
    pairs = THREADS // threads_per_pair
    if pairs * floats_per_pair > SHARED_FLOATS:
        pairs = SHARED_FLOATS // floats_per_pair
    pairs = max(pairs, 1)  # one pair of 64 × 64 by 64 × 64 takes 33 KiB
    b_at = round_up_to_tile(pairs * m * (n + 1))
    return np.array((pairs, b_at, b_at + pairs * n * round_up_to_tile(p)), PACKING)[()]


class Rung:
    def prepare(self, inputs, outputs, context):
        self.a, self.b, self.c = inputs["a"], inputs["b"], outputs["c"]
        self.batch, self.m, self.n = self.a.shape
        self.p = self.b.shape[2]
        self.tiles = self.m * self.p >= TILES_FROM_OUTPUTS
        name = "batched_matmul_register_tiles" if self.tiles else "batched_matmul_elements"
        module = kernel_module(os.path.join(context["kernels"], "batched_matmul.cuh"), [name])
        self.kernel = module.get_function(name)
        self.d_a, self.d_b = cupy.empty(self.a.shape, cupy.float32), cupy.empty(self.b.shape, cupy.float32)
        self.d_c = cupy.empty(self.c.shape, cupy.float32)
        if self.tiles:
            self.packing = matmul_packing(self.m, self.n, self.p)
            self.blocks = -(-self.batch // int(self.packing["pairs"]))
        else:
            self.blocks = -(-self.c.size // THREADS)

    def upload(self):
        self.d_a.set(self.a)
        self.d_b.set(self.b)

    def compute(self):
        u32 = np.uint32
        m, n, p = u32(self.m), u32(self.n), u32(self.p)
        if self.tiles:
            self.kernel((self.blocks,), (THREADS,),
                        (self.d_a, self.d_b, self.d_c, u32(self.batch), m, n, p, self.packing),
                        shared_mem=int(self.packing["shared_floats"]) * 4)
        else:
            self.kernel((self.blocks,), (THREADS,), (self.d_a, self.d_b, self.d_c, m, n, p, u32(self.c.size)))

    def download(self):
        self.d_c.get(out=self.c)

    def device_name(self):
        return device_name()
