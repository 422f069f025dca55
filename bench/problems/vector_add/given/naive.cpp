// naive: the loop a newcomer writes, every element read through a
// bounds-checked accessor (as Python's or std::vector::at's indexing does).
// The check can throw inside the loop, so the compiler keeps it scalar.
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against. The class is in
// naive.hpp, beside this file, where the tests derive their planted
// mistakes from it.
#include "bench/problems/vector_add/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(vector_add, naive, vector_add::NaiveVectorAdd);
}  // namespace ladder
