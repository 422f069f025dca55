// opencl: tiles in local memory. The host side is the solution's, given: it
// checks that the device has double precision, builds kernels/dispersion.cl
// for the run's k (-DRADIUS=k, and the tile's size) and launches one
// work-group of 32 × 8 work-items per 32 × 32 tile of every frame. You write
// dispersion_mask in kernels/dispersion.cl, and rerun `ladder check`
// without rebuilding: the track reads the file.
#include "solutions/spot_finding/opencl.cpp"
