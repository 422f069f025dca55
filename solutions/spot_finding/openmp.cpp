// openmp: the serial rung's summed-area tables (summed_area.hpp) on bands
// of rows. The stack is cut into (frame, band) pieces and the threads take
// them dynamically: frames alone would leave threads idle on a short stack
// or a single image, bands alone would synchronise inside every frame.
// Each band builds its own table over its rows plus the k rows either side
// that its windows reach, so the pieces share nothing but the input.
#include <omp.h>

#include <algorithm>
#include <vector>

#include "solutions/spot_finding/summed_area_rung.hpp"

namespace ladder {
namespace {

class OpenMpSpotFinding final : public spot_finding::SummedAreaRung<OpenMpRung> {
 public:
  using SummedAreaRung::SummedAreaRung;

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
  std::vector<std::vector<spot_finding::SatEntry>> tables_;  // one per thread, reused
};

}  // namespace
LADDER_REGISTER_RUNG(spot_finding, openmp, OpenMpSpotFinding);
}  // namespace ladder
