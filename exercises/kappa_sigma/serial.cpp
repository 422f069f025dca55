// serial: the lesson's loop without a full sort per iteration. The median
// needs one value in its place, not all of them (selection); the clipped
// values can be dropped from a work buffer as you go (compaction), so that
// each iteration only touches the values still kept.
#include <cstdint>
#include <span>
#include <vector>

#include "ladder/error.hpp"
#include "ladder/registry.hpp"
#include "given/kappa_sigma/clip.hpp"

namespace ladder {
namespace {

class SerialKappaSigma final : public HostRung {
 public:
  explicit SerialKappaSigma(const RungContext& context) : kappa_(kappa_sigma::kappa_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>();
    mask_ = outputs.at("mask").view<std::uint8_t>();
    statistics_ = outputs.at("statistics").view<double>();
    work_.resize(image_.size());  // yours to use: room for every value
  }

  void compute() override {
    // TODO: the loop of naive.cpp (task sheet, step 1): mask_[i] = 1 for
    // the values kept, and the statistics of the last pass in a
    // ClipStatistics, written out with kappa_sigma::store_statistics(stats,
    // statistics_). The median: std::nth_element instead of std::sort (an
    // even count needs the largest value below the middle one too). The
    // sums: in double. The iteration count must equal naive's.
    LADDER_TODO(
        "serial: write the clipping loop in compute() of exercises/kappa_sigma/serial.cpp, then delete this line");
  }

 private:
  double kappa_;
  std::span<const float> image_;
  std::span<std::uint8_t> mask_;
  std::span<double> statistics_;
  std::vector<float> work_;
};

}  // namespace
LADDER_REGISTER_RUNG(kappa_sigma, serial, SerialKappaSigma);
}  // namespace ladder
