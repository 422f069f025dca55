// opencl: label equivalence on the device. The host side is the solution's,
// given: it sizes the tiles and chunks from the device and enqueues the
// five kernels of kernels/labelling.cl, of which you write the first two
// (label_tiles, merge_tile_borders). Rerun `ladder check` after editing
// the kernel file without rebuilding: the track reads it.
#include "solutions/labelling/opencl.cpp"
