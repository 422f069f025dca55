// naive: the rung's registration. Its loop and its idea are in naive.hpp,
// where the tests derive their planted mistakes from it.
#include "bench/problems/batched_matmul/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(batched_matmul, naive, batched_matmul::NaiveBatchedMatmul);
}  // namespace ladder
