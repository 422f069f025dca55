// openmp: the serial rung's selection network, with the rows of every frame
// shared out among the threads (frames × rows as one loop, so that a single
// large frame and a stack of small ones both keep every thread busy). Each
// row is read-only input and written by one thread: no thread waits.
#include "solutions/median_filter/network_rung.hpp"

namespace ladder {
namespace {

class OpenMpMedianFilter final : public median_filter::NetworkRung<OpenMpRung> {
 public:
  using NetworkRung::NetworkRung;

  void compute() override {
    with_filter([](const auto& filter) {
      const long height = long(filter.stack().height), rows = long(filter.stack().frames) * height;
#pragma omp parallel
      {
        auto scratch = filter.scratch();  // each thread's own
#pragma omp for schedule(static)
        for (long row = 0; row < rows; ++row) filter.row(std::size_t(row / height), row % height, scratch);
      }
    });
  }
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, openmp, OpenMpMedianFilter);
}  // namespace ladder
