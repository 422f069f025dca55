// naive: the course's loop. For every pixel, walk around the polygon and
// flip "inside" each time the ray from the pixel towards +x crosses an
// edge: H·W·N edge tests, most of them on edges nowhere near the pixel.
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against. The class is in
// naive.hpp, beside this file, where the tests derive their planted
// mistakes from it.
#include "bench/problems/polygon_mask/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(polygon_mask, naive, polygon_mask::NaivePolygonMask);
}  // namespace ladder
