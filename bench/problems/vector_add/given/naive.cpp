// naive: the rung's registration. Its loop and its idea are in naive.hpp,
// where the tests derive their planted mistakes from it.
#include "bench/problems/vector_add/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(vector_add, naive, vector_add::NaiveVectorAdd);
}  // namespace ladder
