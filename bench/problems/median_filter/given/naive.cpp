// naive: the rung's registration. Its loop and its idea are in naive.hpp,
// where the tests derive their planted mistakes from it.
#include "bench/problems/median_filter/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(median_filter, naive, median_filter::NaiveMedianFilter);
}  // namespace ladder
