"""primes, python_numpy: the sieve of Eratosthenes, a slice a prime.

What a course writes: start with every number from 2 on marked prime, and
for each prime p <= sqrt(n - 1) clear p^2, p^2 + p, ... with one slice
assignment, `flags[p*p::p] = 0`: a strided store loop in NumPy's C code.
The Python loop runs once per number up to sqrt(n), the stores are
compiled. A byte per number and no segments: each prime makes a pass over
all n flags, which at 10^8 is far more than the caches hold.
"""
import math

REQUIRES = ()


class Rung:
    def prepare(self, inputs, outputs, context):
        self.flags = outputs["flags"]

    def compute(self):
        flags = self.flags
        flags[:] = 1
        flags[:2] = 0  # 0 and 1 are not prime
        for p in range(2, math.isqrt(max(len(flags) - 1, 0)) + 1):
            if flags[p]:
                flags[p * p::p] = 0
