// naive: the definition, four nested loops. For every output pixel, every
// kernel tap, with a bounds check on every read:
//   output[y][x] = sum over (i, j) of kernel[i][j] * image[y - i][x - j], 0 outside the image.
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against. The class is in
// naive.hpp, beside this file, where the tests derive their planted
// mistakes from it.
#include "bench/problems/convolution/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(convolution, naive, convolution::NaiveConvolution);
}  // namespace ladder
