// naive: the slides' core function, "(m,n),(n,p)->(m,p)", called on one
// pair of matrices after the other: for each element of c, the dot product
// of a row of a and a column of b. The column is read with a stride of p.
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against. The class is in
// naive.hpp, beside this file, where the tests derive their planted
// mistakes from it.
#include "bench/problems/batched_matmul/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(batched_matmul, naive, batched_matmul::NaiveBatchedMatmul);
}  // namespace ladder
