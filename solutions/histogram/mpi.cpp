// mpi: the values shared among the ranks of an MPI job. Each rank counts its
// part into private counts, as the serial rung does, and one MPI_Reduce adds
// the ranks' 256 counts on rank 0: the reduction of private counts, with
// processes instead of threads (the openmp rung's idea, across memories).
#include <array>
#include <vector>

#include "ladder/mpi.hpp"

namespace ladder {
namespace {

constexpr std::size_t kCopies = 4;

class MpiHistogram final : public MpiRung {
 public:
  explicit MpiHistogram(const RungContext& context) : MpiRung(context) {}
  std::optional<std::vector<Message>> communication() const override {
    return std::vector<Message>{{"reduce", 256 * sizeof(std::uint32_t), 1}};
  }

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    long long n = 0;
    if (rank() == 0) {
      values_ = inputs->at("values").view<std::uint8_t>().data();
      n = static_cast<long long>(inputs->at("values").size());
      counts_ = outputs->at("counts").view<std::uint32_t>().data();
    }
    LADDER_MPI(MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, communicator()));  // every rank sizes its part
    parts_ = parts_of(n, ranks());
    part_.resize(parts_.counts[rank()]);
  }

  // Upload: rank 0 sends each rank its part of the values.
  void scatter() override {
    LADDER_MPI(MPI_Scatterv(values_, parts_.counts.data(), parts_.offsets.data(), MPI_UNSIGNED_CHAR, part_.data(),
                            parts_.counts[rank()], MPI_UNSIGNED_CHAR, 0, communicator()));
  }

  void compute_ranks() override {
    // The serial rung's four interleaved copies, on this rank's part.
    std::array<std::array<std::uint32_t, 256>, kCopies> copies{};
    const std::uint8_t* values = part_.data();
    const std::size_t n = part_.size();
    std::size_t i = 0;
    for (; i + kCopies <= n; i += kCopies) {
      copies[0][values[i]]++;
      copies[1][values[i + 1]]++;
      copies[2][values[i + 2]]++;
      copies[3][values[i + 3]]++;
    }
    for (; i < n; ++i) copies[0][values[i]]++;
    std::array<std::uint32_t, 256> mine{};
    for (std::size_t bin = 0; bin < 256; ++bin)
      mine[bin] = copies[0][bin] + copies[1][bin] + copies[2][bin] + copies[3][bin];

    // The one message the algorithm needs: every rank's counts, added on rank 0.
    LADDER_MPI(MPI_Reduce(mine.data(), counts_, 256, MPI_UINT32_T, MPI_SUM, 0, communicator()));
  }

 private:
  const std::uint8_t* values_ = nullptr;  // rank 0 only
  std::uint32_t* counts_ = nullptr;       // rank 0 only
  Parts parts_;  // every rank's part of the values
  std::vector<std::uint8_t> part_;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, mpi, MpiHistogram);
}  // namespace ladder
