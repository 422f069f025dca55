// naive: the rung's registration. Its loop and its idea are in naive.hpp,
// where the tests derive their planted mistakes from it.
#include "bench/problems/convolution/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(convolution, naive, convolution::NaiveConvolution);
}  // namespace ladder
