// naive: flood fill. Scan the pixels in raster order; at each foreground
// pixel not yet labelled, start a new component and paint everything
// reachable from it. Components are met in raster order of their first
// pixel, so they are numbered as scipy numbers them. The pixels still to
// visit wait on an explicit stack: a recursive fill would need one stack
// frame per pixel of the component, and overflows on large ones (README).
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against. The class is in
// naive.hpp, beside this file, where the tests derive their planted
// mistakes from it.
#include "bench/problems/labelling/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(labelling, naive, labelling::NaiveLabelling);
}  // namespace ladder
