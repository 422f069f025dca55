"""batched_matmul, python_numba_cuda_guvectorize: NumbaPro's @guvectorize, on the GPU.

One matrix product written as a Python function over a core of shape
(m,n),(n,p)->(m,p); @guvectorize(target="cuda") makes a generalised GPU
ufunc of it (compiled at its first call, the row's first-call cost) that
runs it once for each pair of the batch, a thread a pair, on arrays already
on the device. The slides' pattern: no kernel, no indices, no launch
configuration. Its price: one thread does a whole product, where the cuda
rung shares one among a block.
"""
import numpy as np
from numba import cuda, float32, guvectorize

REQUIRES = ("numba", "numba.cuda")
DEVICE = "cuda"


@guvectorize([(float32[:, :], float32[:, :], float32[:, :])], "(m,n),(n,p)->(m,p)", target="cuda")
def matmul(a, b, c):
    m, n = a.shape
    p = b.shape[1]
    for i in range(m):
        for j in range(p):
            total = float32(0)  # float32 throughout, as the C++ rungs accumulate
            for k in range(n):
                total += a[i, k] * b[k, j]
            c[i, j] = total


class Rung:
    def prepare(self, inputs, outputs, context):
        self.a, self.b, self.c = inputs["a"], inputs["b"], outputs["c"]
        self.d_a = cuda.device_array(self.a.shape, np.float32)
        self.d_b = cuda.device_array(self.b.shape, np.float32)
        self.d_c = cuda.device_array(self.c.shape, np.float32)

    def upload(self):
        self.d_a.copy_to_device(self.a)
        self.d_b.copy_to_device(self.b)

    def compute(self):
        matmul(self.d_a, self.d_b, self.d_c)

    def download(self):
        self.d_c.copy_to_host(self.c)

    def device_name(self):
        name = cuda.get_current_device().name
        return name.decode() if isinstance(name, bytes) else name
