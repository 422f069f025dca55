// naive: the brute-force window, the logic of the notes' GPU kernel run on
// the CPU. For every pixel, visit each of the (2k+1)² neighbours, skip those
// outside the frame or masked, and sum count, Σv and Σv² exactly; then
// DIALS' test. (2k+1)² = 49 visits a pixel at k = 3: the rungs above get
// the same sums with a handful of operations.
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against. The class is in
// naive.hpp, beside this file, where the tests derive their planted
// mistakes from it.
#include "bench/problems/spot_finding/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(spot_finding, naive, spot_finding::NaiveSpotFinding);
}  // namespace ladder
