"""vector_add, python_numba_cuda_vectorize: NumbaPro's @vectorize, on the GPU.

The addition of two floats, written once as a scalar Python function;
@vectorize(target="cuda") makes a GPU ufunc of it (compiled at its first
call, the row's first-call cost), one thread an element, over arrays that
are already on the device. The kernel is Numba's, not the cuda rung's.
"""
import numpy as np
from numba import cuda, vectorize

REQUIRES = ("numba", "numba.cuda")
DEVICE = "cuda"


@vectorize(["float32(float32, float32)"], target="cuda")
def add(x, y):
    return x + y


class Rung:
    def prepare(self, inputs, outputs, context):
        self.a, self.b, self.c = inputs["a"], inputs["b"], outputs["c"]
        self.d_a, self.d_b, self.d_c = (cuda.device_array(self.c.shape, np.float32) for _ in range(3))

    def upload(self):
        self.d_a.copy_to_device(self.a)
        self.d_b.copy_to_device(self.b)

    def compute(self):
        add(self.d_a, self.d_b, out=self.d_c)

    def download(self):
        self.d_c.copy_to_host(self.c)

    def device_name(self):
        name = cuda.get_current_device().name
        return name.decode() if isinstance(name, bytes) else name
