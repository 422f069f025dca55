// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// openmp_target: the openmp loop sent to the GPU by directives (step 5 of
// the task sheet). The device's arrays are given: prepare maps them, the
// destructor frees them. You write the copies (upload, download) and the
// target region (compute).
#include "ladder/error.hpp"
// ==== end
// openmp_target: the openmp loop moved to the GPU by directives alone
// (`target teams distribute parallel for`). The arrays are mapped to the
// device once, in prepare; upload and download copy them with `target
// update`, so compute finds them there, as the cuda rung's kernel does.
#include "ladder/openmp_target.hpp"

namespace ladder {
namespace {

class OpenMpTargetVectorAdd final : public OpenMpTargetRung {
 public:
  explicit OpenMpTargetVectorAdd(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>().data();
    b_ = inputs.at("b").view<float>().data();
    c_ = outputs.at("c").view<float>().data();
    n_ = static_cast<long>(outputs.at("c").size());
    require_device_memory(3 * sizeof(float) * n_);
    // Device memory for the three arrays, nothing copied yet (like cudaMalloc).
#pragma omp target enter data map(alloc : a_[0 : n_], b_[0 : n_], c_[0 : n_])
  }

  // `update`, not `enter data map(to: ...)`: arrays already mapped are not
  // copied again by a map, only by an update.
  void upload() override {
    // ==== yours
    // TODO: copy a_ and b_ (n_ floats each) to their device copies, which
    // prepare mapped: `#pragma omp target update to(...)` with array
    // sections, `a_[0 : n_]`.
    LADDER_TODO("openmp_target: copy the inputs to the device in upload() of exercises/vector_add/openmp_target.cpp, then delete this line");
    // ==== end
  }

  void compute() override {
    // Locals, not members: a member named in the region (n_) makes clang map
    // `this`, which it finds already mapped as the 8 bytes of the pointer
    // member `enter data` mapped, and the region reads past them (on the
    // H200 the rung's output stayed zero; on clang's x86_64 offload target it
    // crashes). The arrays are present, so the pointers become the device's
    // copies.
    const float* a = a_;
    const float* b = b_;
    float* c = c_;
    const long n = n_;
    // ==== yours
    // TODO: the openmp rung's loop, c[i] = a[i] + b[i] over i < n, run on
    // the device: `#pragma omp target teams distribute parallel for` before
    // it. Name the locals above in the region, not the members.
    (void)a, (void)b, (void)c, (void)n;
    LADDER_TODO("openmp_target: write the target region in compute() of exercises/vector_add/openmp_target.cpp, then delete this line");
    // ==== end
  }

  void download() override {
    // ==== yours
    // TODO: copy c_ back from the device (`target update from(...)`).
    LADDER_TODO("openmp_target: copy the output back in download() of exercises/vector_add/openmp_target.cpp, then delete this line");
    // ==== end
  }

  ~OpenMpTargetVectorAdd() override {
    if (c_ != nullptr) {
#pragma omp target exit data map(delete : a_[0 : n_], b_[0 : n_], c_[0 : n_])
    }
  }

 private:
  const float* a_ = nullptr;
  const float* b_ = nullptr;
  float* c_ = nullptr;
  long n_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(vector_add, openmp_target, OpenMpTargetVectorAdd);
}  // namespace ladder
