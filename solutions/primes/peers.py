"""primes's peers: the libraries a participant would call instead, timed by reports/peers.py on the
same inputs as the rungs. `peers(inputs, parameters)` yields them (reports/peer_tools.py: the protocol)."""

import numpy as np

from peer_tools import host_timer


def peers(inputs, parameters):
    """primesieve (Kim Walisch's segmented sieve) on one thread, through its C library (libprimesieve,
    which the Debian package primesieve installs), called with ctypes and timed here like the other
    Python peers, repeated until the time is measurable (its command-line tool's own --time has 1 ms
    resolution and reads 0 at n = 10^5). Two ways to use it:
    - counting the primes below n, its fastest operation, which is not the exercise's output (it is
      checked against the count of flags);
    - the route a user takes to the exercise's exact output: the primes below n as an array
      (primesieve_generate_primes), then a zeroed uint8 array of n flags set at those indices."""
    import ctypes
    import ctypes.util
    count_name = "primesieve_count_primes (libprimesieve, 1 thread)"  # the name earlier runs recorded
    flags_name = "primesieve_generate_primes, then flags[primes] = 1 (libprimesieve, 1 thread)"
    library = ctypes.util.find_library("primesieve")
    if library is None:
        for name in (count_name, flags_name):
            yield name, "cpu", "libprimesieve is not installed (Debian package primesieve)"
        return
    primesieve = ctypes.CDLL(library)
    primesieve.primesieve_count_primes.restype = ctypes.c_uint64
    primesieve.primesieve_count_primes.argtypes = [ctypes.c_uint64, ctypes.c_uint64]
    primesieve.primesieve_generate_primes.restype = ctypes.c_void_p
    primesieve.primesieve_generate_primes.argtypes = [ctypes.c_uint64, ctypes.c_uint64,
                                                       ctypes.POINTER(ctypes.c_size_t), ctypes.c_int]
    primesieve.primesieve_free.argtypes = [ctypes.c_void_p]
    primesieve.primesieve_set_num_threads.argtypes = [ctypes.c_int]
    primesieve.primesieve_set_num_threads(1)
    n = int(parameters["n"])
    stop = max(n - 1, 0)  # primesieve works on [0, STOP]

    def count():
        return primesieve.primesieve_count_primes(0, stop)

    def compare(counted, expected):
        want = int(np.count_nonzero(next(iter(expected.values()))))
        return counted == want, "identical count" if counted == want else f"counted {counted} primes, the flags hold {want}"
    yield count_name, "cpu", lambda: (host_timer(count), count, compare), 1

    uint64_primes = 13  # primesieve.h's enum: SHORT, USHORT, INT, UINT, LONG, ULONG, ..., INT64, UINT64

    def flags():
        size = ctypes.c_size_t()
        found = primesieve.primesieve_generate_primes(0, stop, ctypes.byref(size), uint64_primes)
        result = np.zeros(n, dtype=np.uint8)
        if size.value:
            primes = np.ctypeslib.as_array(ctypes.cast(found, ctypes.POINTER(ctypes.c_uint64)), shape=(size.value,))
            result[primes] = 1
        primesieve.primesieve_free(found)
        return result
    yield flags_name, "cpu", lambda: (host_timer(flags), flags), 1
