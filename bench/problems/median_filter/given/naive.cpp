// naive: the definition. For every pixel, copy its k×k neighbourhood into a
// small array, reading across the borders with scipy's reflect rule, sort
// it, and take the middle element. k² log k² work per pixel, nothing shared
// between neighbouring pixels.
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against. The class is in
// naive.hpp, beside this file, where the tests derive their planted
// mistakes from it.
#include "bench/problems/median_filter/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(median_filter, naive, median_filter::NaiveMedianFilter);
}  // namespace ladder
