// serial: the loop that vectorises (products.hpp). For the slides' tiny
// matrices (2 × 4 by 4 × 5) no row fills a vector, so 16 pairs are copied
// side by side and each multiply-add works on 16 matrices at once; for
// matrices of more than 64 elements, i-k-j order runs the innermost loop
// along contiguous rows of b and c. naive's j-k loop reads b by columns.
#include "ladder/registry.hpp"
#include "solutions/batched_matmul/products.hpp"

namespace ladder {
namespace {

class SerialBatchedMatmul final : public HostRung {
 public:
  explicit SerialBatchedMatmul(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    const auto& a = inputs.at("a").shape();
    batch_ = {inputs.at("a").view<float>().data(), inputs.at("b").view<float>().data(),
              outputs.at("c").view<float>().data(), a[1], a[2], inputs.at("b").shape()[2]};
    pairs_ = a[0];
  }

  void compute() override { batched_matmul::multiply(batch_, 0, pairs_); }

 private:
  batched_matmul::Batch batch_{};
  std::size_t pairs_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(batched_matmul, serial, SerialBatchedMatmul);
}  // namespace ladder
