// serial: summed-area tables, DIALS' own method (summed_area.hpp). One pass
// builds, for the whole frame, the running sums of count, Σv and Σv²; every
// window's sums are then four table reads, whatever the window's size:
// O(1) a pixel instead of the naive rung's (2k+1)². The table is built for
// a band of 64 rows at a time, so that it is read back from the caches.
// Pixels that cannot be signal (masked, not above the threshold, not above
// the window's mean) skip the table or the square roots.
#include <algorithm>
#include <vector>

#include "solutions/spot_finding/summed_area_rung.hpp"

namespace ladder {
namespace {

class SerialSpotFinding final : public spot_finding::SummedAreaRung<HostRung> {
 public:
  using SummedAreaRung::SummedAreaRung;

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
  std::vector<spot_finding::SatEntry> table_;  // one frame's table, reused
};

}  // namespace
LADDER_REGISTER_RUNG(spot_finding, serial, SerialSpotFinding);
}  // namespace ladder
