"""histogram, python_numba_cuda: the GPU lesson's shared-memory histogram,
a kernel written in Python and compiled by numba.cuda.jit.

Each block counts its share of the values into one 256-bin table in shared
memory (atomics there are cheap and local to the block), then adds the table
to the global counts: 256 global atomics a block instead of one a value. A
grid-stride loop over the resident blocks covers any n. The counts are
zeroed at the start of each call, as the lesson does. The cuda rung goes
further (a table a lane, 16-byte loads, no zeroing launch).
"""
import numpy as np
from numba import cuda, uint32

REQUIRES = ("numba", "numba.cuda")
DEVICE = "cuda"

THREADS = 256
BINS = 256


@cuda.jit
def histogram_shared(values, counts):
    table = cuda.shared.array(BINS, uint32)
    for b in range(cuda.threadIdx.x, BINS, cuda.blockDim.x):
        table[b] = 0
    cuda.syncthreads()  # the table is zero before anyone counts
    for i in range(cuda.grid(1), values.size, cuda.gridsize(1)):
        cuda.atomic.add(table, values[i], 1)
    cuda.syncthreads()  # every value counted before the table is added up
    for b in range(cuda.threadIdx.x, BINS, cuda.blockDim.x):
        if table[b]:
            cuda.atomic.add(counts, b, table[b])


class Rung:
    def prepare(self, inputs, outputs, context):
        self.values, self.counts = inputs["values"], outputs["counts"]
        self.d_values = cuda.device_array(self.values.shape, np.uint8)
        self.d_counts = cuda.device_array(BINS, np.uint32)
        # The blocks resident at once: an SM of an A100, H100 or H200 holds 2048 threads.
        resident = cuda.get_current_device().MULTIPROCESSOR_COUNT * (2048 // THREADS)
        self.blocks = max(1, min(resident, -(-self.values.size // THREADS)))

    def upload(self):
        self.d_values.copy_to_device(self.values)

    def compute(self):
        self.d_counts[:] = 0  # every call counts afresh
        histogram_shared[self.blocks, THREADS](self.d_values, self.d_counts)

    def download(self):
        self.d_counts.copy_to_host(self.counts)

    def device_name(self):
        name = cuda.get_current_device().name
        return name.decode() if isinstance(name, bytes) else name
