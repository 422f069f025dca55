// opencl: a segmented sieve in local memory, one segment per work-group. The
// host side is the solution's, given: it finds the base primes, sizes the
// segment from the device's local memory and launches primes_sieve. You
// write the kernel in kernels/primes.cl, and rerun `ladder check` without
// rebuilding: the track reads the file.
#include "solutions/primes/opencl.cpp"
