// opencl: the whole loop on the device, only a flag read back per few
// iterations. The host side is the solution's, given: it enqueues, per
// iteration, clip_survey, clip_select(0), clip_refine(1), clip_select(1),
// clip_refine(2), clip_select(2), and clip_start before and clip_mask after
// the loop. You write them in kernels/kappa_sigma.cl, and rerun `ladder
// check` without rebuilding: the track reads the file.
#include "solutions/kappa_sigma/opencl.cpp"
