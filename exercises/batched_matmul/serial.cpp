// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// serial: the products on one core, with a loop the compiler can turn into
// vector instructions. naive's innermost loop is a dot product of n terms
// (4 for the slides' 2 × 4 by 4 × 5): too short to fill a vector of 8
// floats. Find a loop that is long enough (task sheet, step 1).
#include "ladder/error.hpp"
// ==== end
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class SerialBatchedMatmul final : public HostRung {
 public:
  explicit SerialBatchedMatmul(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    // ==== exercise only
    a_ = inputs.at("a").view<float>().data();  // [batch][m][n]
    b_ = inputs.at("b").view<float>().data();  // [batch][n][p]
    c_ = outputs.at("c").view<float>().data();  // [batch][m][p]
    // ==== end
    const auto& a = inputs.at("a").shape();
    // ==== exercise only
    batch_ = a[0], m_ = a[1], n_ = a[2], p_ = inputs.at("b").shape()[2];
    // ==== end
  }

  // ==== yours
  void compute() override {
    // TODO: c[q] = a[q] @ b[q] for every q in [0, batch_), with the
    // innermost loop long enough to vectorise: along the rows of b and c
    // (i-k-j order), or across the batch (task sheet, step 1).
    LADDER_TODO("serial: write the products in compute() of exercises/batched_matmul/serial.cpp, then delete this line");
  }
  // ==== end

 private:
  // ==== exercise only
  const float* a_ = nullptr;
  const float* b_ = nullptr;
  float* c_ = nullptr;
  std::size_t batch_ = 0, m_ = 0, n_ = 0, p_ = 0;
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(batched_matmul, serial, SerialBatchedMatmul);
}  // namespace ladder
