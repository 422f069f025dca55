// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// openmp: your serial products with the batch shared among the threads
// (task sheet, step 2). The pairs are independent and all cost the same.
#include "ladder/error.hpp"
// ==== end
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class OpenMpBatchedMatmul final : public OpenMpRung {
 public:
  explicit OpenMpBatchedMatmul(const RungContext&) {}

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

  void compute() override {
    // ==== yours
    // TODO: the loop over the batch, shared among the threads with one
    // OpenMP pragma; inside it, your serial products.
    LADDER_TODO("openmp: share the batch among the threads in compute() of exercises/batched_matmul/openmp.cpp, "
                "then delete this line");
    // ==== end
  }

 private:
  // ==== exercise only
  const float* a_ = nullptr;
  const float* b_ = nullptr;
  float* c_ = nullptr;
  std::size_t batch_ = 0, m_ = 0, n_ = 0, p_ = 0;
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(batched_matmul, openmp, OpenMpBatchedMatmul);
}  // namespace ladder
