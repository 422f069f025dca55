// naive: the rung's registration. Its loop and its idea are in naive.hpp,
// where the tests derive their planted mistakes from it.
#include "bench/problems/labelling/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(labelling, naive, labelling::NaiveLabelling);
}  // namespace ladder
