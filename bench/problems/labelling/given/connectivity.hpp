#pragma once
// The connectivity every labelling rung reads from its parameters: 4 (edge
// neighbours, scipy's default structure) unless --param connectivity=8.
#include "ladder/params.hpp"

namespace ladder::labelling {

inline int connectivity(const Params& params) {
  return params.has("connectivity") ? static_cast<int>(params.integer("connectivity")) : 4;
}

}  // namespace ladder::labelling
