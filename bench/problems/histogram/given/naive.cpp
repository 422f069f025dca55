// naive: the loop a newcomer writes, one counter per bin, counts[v]++.
// When a value repeats, each increment must wait for the previous store to
// the same counter: on `skewed` data the loop is one long dependency chain.
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against. The class is in
// naive.hpp, beside this file, where the tests derive their planted
// mistakes from it.
#include "bench/problems/histogram/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(histogram, naive, histogram::NaiveHistogram);
}  // namespace ladder
