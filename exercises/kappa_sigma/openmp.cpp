// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// openmp: every pass over the kept values shared among the cores: the sums
// (a reduction), the compaction (each thread its own part of the buffer)
// and the median, which std::nth_element cannot split between threads.
// ==== end
#include <omp.h>

#include <vector>

// ==== exercise only
#include "ladder/error.hpp"
// ==== end
#include "bench/problems/kappa_sigma/given/sky_rung.hpp"

namespace ladder {
namespace {

class OpenMpKappaSigma final : public kappa_sigma::SkyRung<OpenMpRung> {
 public:
  using SkyRung::SkyRung;

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    SkyRung::prepare(inputs, outputs);
    // ==== exercise only
    work_.resize(image_.size());  // yours to use: room for every value
    // ==== end
  }

  void compute() override {
    // ==== yours
    // TODO: your serial loop with its passes in parallel (task sheet,
    // step 2). The sums: a reduction, but in which order are the threads'
    // parts added, and does the answer then change from run to run? The
    // compaction: where does each thread put its survivors? The median:
    // count the kept values by the top bits of their float bit patterns
    // (made order-preserving), find the bucket that holds the middle, and
    // repeat on the next bits among that bucket's values only.
    LADDER_TODO(
        "openmp: write the parallel loop in compute() of exercises/kappa_sigma/openmp.cpp, then delete this line");
    // ==== end
  }

 private:
  // ==== exercise only
  std::vector<float> work_;  // yours to use
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(kappa_sigma, openmp, OpenMpKappaSigma);
}  // namespace ladder
