// naive: the lesson's loop written the obvious way. Each iteration copies
// the kept pixels out, sorts them all to read the median off the middle,
// sums twice for the mean and the std, then clears the mask of the pixels
// outside the bounds. The full sort, O(n log n) per iteration, dominates.
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against. The class is in
// naive.hpp, beside this file, where the tests derive their planted
// mistakes from it.
#include "bench/problems/kappa_sigma/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(kappa_sigma, naive, kappa_sigma::NaiveKappaSigma);
}  // namespace ladder
