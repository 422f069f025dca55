"""primes, python_loops: the sieve of Eratosthenes, every store a Python step.

The plain sieve, a byte per number, in a bytearray: for each prime p <=
sqrt(n - 1), a loop of `sieve[multiple] = 0` from p^2 in steps of p. Not
the lesson's trial division (the naive rung): in pure Python that took
7.3 s at n = 10^5 on the 2-core development VM (n^2 / (4 ln n)
divisions, 16x the C++ naive's time), too slow to time repeatedly. The
sieve's n ln ln n stores, each an interpreted step, beat even the C++
trial division at the workshop size: the algorithm is worth more than the
language.
"""
REQUIRES = ()


class Rung:
    def prepare(self, inputs, outputs, context):
        self.flags = outputs["flags"]

    def compute(self):
        n = len(self.flags)
        sieve = bytearray([1]) * n
        for k in range(min(n, 2)):  # 0 and 1 are not prime
            sieve[k] = 0
        p = 2
        while p * p < n:
            if sieve[p]:
                for multiple in range(p * p, n, p):
                    sieve[multiple] = 0
            p += 1
        self.flags[:] = memoryview(sieve)  # one copy into the NumPy flags
