// openmp: serial's products (products.hpp) with the batch shared out among
// the threads in equal contiguous chunks of whole groups of 16 pairs: the
// pairs are independent and all cost the same.
#include "ladder/registry.hpp"
#include "solutions/batched_matmul/products.hpp"

namespace ladder {
namespace {

using batched_matmul::kLanes;

class OpenMpBatchedMatmul final : public OpenMpRung {
 public:
  explicit OpenMpBatchedMatmul(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    const auto& a = inputs.at("a").shape();
    batch_ = {inputs.at("a").view<float>().data(), inputs.at("b").view<float>().data(),
              outputs.at("c").view<float>().data(), a[1], a[2], inputs.at("b").shape()[2]};
    pairs_ = a[0];
  }

  void compute() override {
    const long groups = static_cast<long>(ceil_div(pairs_, kLanes));
#pragma omp parallel for schedule(static)
    for (long g = 0; g < groups; ++g) {
      const std::size_t first = static_cast<std::size_t>(g) * kLanes;
      batched_matmul::multiply(batch_, first, std::min(pairs_, first + kLanes));
    }
  }

 private:
  batched_matmul::Batch batch_{};
  std::size_t pairs_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(batched_matmul, openmp, OpenMpBatchedMatmul);
}  // namespace ladder
