"""labelling, python_cupy: the cuda rung's own kernels, launched from Python.

CuPy's RawModule compiles kernels/labelling/labelling.cuh, the file the C++
cuda rung includes, with NVRTC when the rung is prepared (its first-call
cost). The same five launches as `cuda`: a block per 32 × 32 tile unites
its pixels in shared memory, the tiles are joined across their borders
(the larger root hung under the smaller, atomicMin), then the roots are
counted a chunk at a time, the counts scanned, and every pixel numbered
as scipy numbers it, all on the device. Only the launch path differs.
"""
import os

import cupy
import numpy as np

from cuda_source import device_name, kernel_module

REQUIRES = ("cupy",)
DEVICE = "cuda"

# The kernel file's constants: tiles of kTileWidth × kTileHeight, blocks of
# kTileWidth × kTileWarps; kBorderThreads, kCountThreads (a chunk is 32 of
# them, a word of root bits each), kScanThreads, kNumberThreads × kNumberPixels.
TILE_WIDTH, TILE_HEIGHT, TILE_WARPS = 32, 32, 8
BORDER_THREADS, COUNT_THREADS, SCAN_THREADS, NUMBER_THREADS, NUMBER_PIXELS = 96, 1024, 1024, 256, 4
CHUNK = 32 * COUNT_THREADS


class Rung:
    def prepare(self, inputs, outputs, context):
        connectivity = 8 if context["params"].get("connectivity", "4") == "8" else 4
        names = [f"label_tiles<{connectivity}>", f"merge_tile_borders<{connectivity}>", "count_roots",
                 "scan_chunk_counts", "number_components"]
        module = kernel_module(os.path.join(context["kernels"], "labelling.cuh"), names)
        self.label_tiles, self.merge_borders, self.count_roots, self.scan_counts, self.number = (
            map(module.get_function, names))
        properties = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
        if properties["warpSize"] != 32:  # the kernels read a tile row with one ballot
            raise RuntimeError("the labelling kernels need warps of 32 threads; "
                               f"this device's are {properties['warpSize']}")
        self.image, self.labels = inputs["image"], outputs["labels"]
        self.height, self.width = self.image.shape
        self.n = self.image.size  # at most 2^31 - 1: the problem refuses more
        self.tiles_across = -(-self.width // TILE_WIDTH)
        self.tiles = self.tiles_across * -(-self.height // TILE_HEIGHT)
        self.chunks = -(-self.n // CHUNK)
        self.d_image = cupy.empty(self.image.shape, cupy.uint8)
        self.d_forest = cupy.empty(self.labels.shape, cupy.int32)  # the union-find forest, -1 for background
        self.d_labels = cupy.empty(self.labels.shape, cupy.int32)
        self.d_root_bits = cupy.empty(self.chunks * (CHUNK // 32), cupy.uint32)  # bit i: pixel i is a root
        self.d_word_offsets = cupy.empty(self.chunks * (CHUNK // 32), cupy.int32)
        self.d_chunk_offsets = cupy.empty(self.chunks, cupy.int32)

    def upload(self):
        self.d_image.set(self.image)

    def compute(self):
        i32 = np.int32
        frame = (self.d_image, i32(self.height), i32(self.width), i32(self.tiles_across), self.d_forest,
                 self.d_root_bits)
        # No roots yet: the tile kernels set their roots' bits, the border unions clear those they link.
        self.d_root_bits.fill(0)
        self.label_tiles((self.tiles,), (TILE_WIDTH, TILE_WARPS), frame)
        if self.tiles > 1:  # borders to join
            self.merge_borders((self.tiles,), (BORDER_THREADS,), frame)
        self.count_roots((self.chunks,), (COUNT_THREADS,),
                         (self.d_root_bits, self.d_word_offsets, self.d_chunk_offsets))
        self.scan_counts((1,), (SCAN_THREADS,), (self.d_chunk_offsets, np.uint32(self.chunks)))
        self.number((-(-self.n // (NUMBER_THREADS * NUMBER_PIXELS)),), (NUMBER_THREADS,),
                    (self.d_forest, self.d_labels, np.uint32(self.n), self.d_root_bits, self.d_word_offsets,
                     self.d_chunk_offsets))

    def download(self):
        self.d_labels.get(out=self.labels)

    def device_name(self):
        return device_name()
