// openmp: every pass over the kept values shared among the cores: the sums
// (a reduction), the compaction (each thread its own part of the buffer)
// and the median, which std::nth_element cannot split between threads.
#include <omp.h>

#include <cstdint>
#include <span>
#include <vector>

#include "ladder/error.hpp"
#include "ladder/registry.hpp"
#include "given/kappa_sigma/clip.hpp"

namespace ladder {
namespace {

class OpenMpKappaSigma final : public OpenMpRung {
 public:
  explicit OpenMpKappaSigma(const RungContext& context) : kappa_(kappa_sigma::kappa_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>();
    mask_ = outputs.at("mask").view<std::uint8_t>();
    statistics_ = outputs.at("statistics").view<double>();
    work_.resize(image_.size());
  }

  void compute() override {
    // TODO: your serial loop with its passes in parallel (task sheet,
    // step 2). The sums: a reduction, but in which order are the threads'
    // parts added, and does the answer then change from run to run? The
    // compaction: where does each thread put its survivors? The median:
    // count the kept values by the top bits of their float bit patterns
    // (made order-preserving), find the bucket that holds the middle, and
    // repeat on the next bits among that bucket's values only.
    LADDER_TODO(
        "openmp: write the parallel loop in compute() of exercises/kappa_sigma/openmp.cpp, then delete this line");
  }

 private:
  double kappa_;
  std::span<const float> image_;
  std::span<std::uint8_t> mask_;
  std::span<double> statistics_;
  std::vector<float> work_;
};

}  // namespace
LADDER_REGISTER_RUNG(kappa_sigma, openmp, OpenMpKappaSigma);
}  // namespace ladder
