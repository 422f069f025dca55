// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// openmp: your serial loop, shared among the cores.
#include "ladder/error.hpp"
// ==== end
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class OpenMpVectorAdd final : public OpenMpRung {
 public:
  explicit OpenMpVectorAdd(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>().data();
    b_ = inputs.at("b").view<float>().data();
    c_ = outputs.at("c").view<float>().data();
    n_ = static_cast<long>(outputs.at("c").size());
  }

  void compute() override {
    // ==== yours
    // TODO: your serial loop with one OpenMP pragma (task sheet, step 2).
    // Which schedule keeps each thread on the memory it first touched?
    LADDER_TODO("openmp: write the loop in compute() of exercises/vector_add/openmp.cpp, then delete this line");
    // ==== end
  }

 private:
  const float* a_ = nullptr;
  const float* b_ = nullptr;
  float* c_ = nullptr;
  long n_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(vector_add, openmp, OpenMpVectorAdd);
}  // namespace ladder
