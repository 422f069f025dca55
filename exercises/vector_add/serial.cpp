// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// serial: the fast single-core loop. naive.cpp checks every index, so the
// compiler cannot turn its loop into SIMD instructions; yours should let it.
#include "ladder/error.hpp"
// ==== end
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class SerialVectorAdd final : public HostRung {
 public:
  explicit SerialVectorAdd(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>().data();
    b_ = inputs.at("b").view<float>().data();
    c_ = outputs.at("c").view<float>().data();
    n_ = outputs.at("c").size();
  }

  void compute() override {
    // ==== yours
    // TODO: c[i] = a[i] + b[i] for i in [0, n_), with plain pointers the
    // compiler may assume do not overlap (task sheet, step 1).
    LADDER_TODO("serial: write the loop in compute() of exercises/vector_add/serial.cpp, then delete this line");
    // ==== end
  }

 private:
  const float* a_ = nullptr;
  const float* b_ = nullptr;
  float* c_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(vector_add, serial, SerialVectorAdd);
}  // namespace ladder
