// serial: a selection network instead of a sort (selection_network.hpp).
// Each column of k values is sorted once and shared by the k windows that
// hold it; a fixed sequence of min/max steps, built once per k, then picks
// the middle value for a whole vector of pixels at once, with no branch.
// naive sorts k² values per pixel; this does 18 min/max per pixel at k = 3.
#include "solutions/median_filter/network_rung.hpp"

namespace ladder {

// The filter compiled here, once, for every pixel type: the openmp and mpi
// rungs call this copy (selection_network.hpp says why).
template class median_filter::SelectionNetworkFilter<float>;
template class median_filter::SelectionNetworkFilter<double>;
template class median_filter::SelectionNetworkFilter<std::uint16_t>;

namespace {

class SerialMedianFilter final : public median_filter::NetworkRung<HostRung> {
 public:
  using NetworkRung::NetworkRung;

  void compute() override {
    with_filter([](const auto& filter) {
      auto scratch = filter.scratch();
      for (std::size_t f = 0; f < filter.stack().frames; ++f)
        for (long y = 0; y < long(filter.stack().height); ++y) filter.row(f, y, scratch);
    });
  }
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, serial, SerialMedianFilter);
}  // namespace ladder
