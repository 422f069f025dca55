// naive: the rung's registration. Its loop and its idea are in naive.hpp,
// where the tests derive their planted mistakes from it.
#include "bench/problems/kappa_sigma/given/naive.hpp"

namespace ladder {
LADDER_REGISTER_RUNG(kappa_sigma, naive, kappa_sigma::NaiveKappaSigma);
}  // namespace ladder
