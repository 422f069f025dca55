// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// mpi: the values shared among the ranks of an MPI job. Each rank counts
// its part into counts of its own, and the ranks' counts are added on rank
// 0: the openmp rung's private counts, with processes for threads. The
// parts and the scatter are given; you write the count and the reduction
// (task sheet, step 5).
#include "ladder/error.hpp"
// ==== end
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
    // ==== yours
    // TODO: this rank's counts (task sheet, step 5): count the values of
    // part_ (part_.size() of them, none on a rank of an input smaller than
    // the job) into 256 counts of this rank's own, from zero on every call,
    // as your serial rung counts (kCopies private copies break the chain of
    // increments). values_ and counts_ are rank 0's only: nullptr elsewhere.
    LADDER_TODO("mpi: count and reduce in compute_ranks() of exercises/histogram/mpi.cpp, then delete this line");
    // ==== end

    // The one message the algorithm needs: every rank's counts, added on rank 0.
    // ==== yours
    // TODO: add every rank's 256 counts into counts_ on rank 0 (MPI_Reduce,
    // MPI_SUM; the MPI datatype of std::uint32_t is MPI_UINT32_T). Every
    // rank calls it, a rank with no values too.
    // ==== end
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
