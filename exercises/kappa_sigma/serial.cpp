// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// serial: the lesson's loop without a full sort per iteration. The median
// needs one value in its place, not all of them (selection); the clipped
// values can be dropped from a work buffer as you go (compaction), so that
// each iteration only touches the values still kept.
// ==== end
#include <vector>

// ==== exercise only
#include "ladder/error.hpp"
// ==== end
#include "bench/problems/kappa_sigma/given/sky_rung.hpp"

namespace ladder {
namespace {

class SerialKappaSigma final : public kappa_sigma::SkyRung<HostRung> {
 public:
  using SkyRung::SkyRung;

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    SkyRung::prepare(inputs, outputs);
    work_.resize(image_.size());
  }

  void compute() override {
    // ==== yours
    // TODO: the loop of naive.hpp (task sheet, step 1): mask_[i] = 1 for
    // the values kept, and the statistics of the last pass in a
    // ClipStatistics, written out with kappa_sigma::store_statistics(stats,
    // statistics_). The median: std::nth_element instead of std::sort (an
    // even count needs the largest value below the middle one too). The
    // sums: in double. The iteration count must equal naive's.
    LADDER_TODO(
        "serial: write the clipping loop in compute() of exercises/kappa_sigma/serial.cpp, then delete this line");
    // ==== end
  }

 private:
  std::vector<float> work_;
};

}  // namespace
LADDER_REGISTER_RUNG(kappa_sigma, serial, SerialKappaSigma);
}  // namespace ladder
