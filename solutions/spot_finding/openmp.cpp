// openmp: the serial rung's summed-area tables (summed_area.hpp) on bands
// of rows. The stack is cut into (frame, band) pieces and the threads take
// them dynamically: frames alone would leave threads idle on a short stack
// or a single image, bands alone would synchronise inside every frame.
// Each band builds its own table over its rows plus the k rows either side
// that its windows reach, so the pieces share nothing but the input.
#include <omp.h>

#include <algorithm>
#include <vector>

#include "ladder/registry.hpp"
#include "summed_area.hpp"

namespace ladder {
namespace {

using spot_finding::Settings;

class OpenMpSpotFinding final : public OpenMpRung {
 public:
  explicit OpenMpSpotFinding(const RungContext& context)
      : settings_(spot_finding::settings_of(context.params)), test_(settings_) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint16_t>().data();
    mask_ = inputs.at("mask").view<std::uint8_t>().data();
    signal_ = outputs.at("signal").view<std::uint8_t>().data();
    stack_ = spot_finding::stack_of(inputs.at("image"));
  }

  void compute() override {
    const long height = long(stack_.height), width = long(stack_.width);
    const long band = std::min(height, spot_finding::kBandRows);
    const long bands = ceil_div(height, band);
    const long pieces = long(stack_.frames) * bands;
    // One table per thread (the harness may change the thread count between runs).
    if (tables_.size() < static_cast<std::size_t>(omp_get_max_threads()))
      tables_.resize(static_cast<std::size_t>(omp_get_max_threads()));
#pragma omp parallel for schedule(dynamic)
    for (long piece = 0; piece < pieces; ++piece) {
      const std::size_t frame = static_cast<std::size_t>(piece / bands) * stack_.frame_pixels();
      const long first = piece % bands * band;
      spot_finding::threshold_rows(image_ + frame, mask_ + frame, signal_ + frame, height, width, first,
                                   std::min(height, first + band), settings_, test_,
                                   tables_[static_cast<std::size_t>(omp_get_thread_num())]);
    }
  }

 private:
  Settings settings_;
  spot_finding::DispersionTest test_;
  const std::uint16_t* image_ = nullptr;
  const std::uint8_t* mask_ = nullptr;
  std::uint8_t* signal_ = nullptr;
  spot_finding::Stack stack_;
  std::vector<std::vector<spot_finding::SatEntry>> tables_;  // one per thread, reused
};

}  // namespace
LADDER_REGISTER_RUNG(spot_finding, openmp, OpenMpSpotFinding);
}  // namespace ladder
