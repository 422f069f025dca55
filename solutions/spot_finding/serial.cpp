// serial: summed-area tables, DIALS' own method (summed_area.hpp). One pass
// builds, for the whole frame, the running sums of count, Σv and Σv²; every
// window's sums are then four table reads, whatever the window's size:
// O(1) a pixel instead of the naive rung's (2k+1)². The table is built for
// a band of 64 rows at a time, so that it is read back from the caches.
// Pixels that cannot be signal (masked, not above the threshold, not above
// the window's mean) skip the table or the square roots.
#include <algorithm>
#include <vector>

#include "ladder/registry.hpp"
#include "summed_area.hpp"

namespace ladder {
namespace {

using spot_finding::Settings;

class SerialSpotFinding final : public HostRung {
 public:
  explicit SerialSpotFinding(const RungContext& context)
      : settings_(spot_finding::settings_of(context.params)), test_(settings_) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint16_t>().data();
    mask_ = inputs.at("mask").view<std::uint8_t>().data();
    signal_ = outputs.at("signal").view<std::uint8_t>().data();
    stack_ = spot_finding::stack_of(inputs.at("image"));
  }

  void compute() override {
    const long height = long(stack_.height), width = long(stack_.width);
    for (std::size_t f = 0; f < stack_.frames; ++f) {
      const std::size_t frame = f * stack_.frame_pixels();
      for (long first = 0; first < height; first += spot_finding::kBandRows)
        spot_finding::threshold_rows(image_ + frame, mask_ + frame, signal_ + frame, height, width, first,
                                     std::min(height, first + spot_finding::kBandRows), settings_, test_, table_);
    }
  }

 private:
  Settings settings_;
  spot_finding::DispersionTest test_;
  const std::uint16_t* image_ = nullptr;
  const std::uint8_t* mask_ = nullptr;
  std::uint8_t* signal_ = nullptr;
  spot_finding::Stack stack_;
  std::vector<spot_finding::SatEntry> table_;  // one frame's table, reused
};

}  // namespace
LADDER_REGISTER_RUNG(spot_finding, serial, SerialSpotFinding);
}  // namespace ladder
