// naive: the rung's registration. Its loop and its idea are in naive.hpp,
// where the tests derive their planted mistakes from it.
#include "bench/problems/polygon_mask/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(polygon_mask, naive, polygon_mask::NaivePolygonMask);
}  // namespace ladder
