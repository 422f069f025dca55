// mpi: domain decomposition. Each rank owns a band of image rows and
// computes the output rows that end in its band (the last rank also the
// K - 1 rows past the image). An output row reads the K - 1 image rows
// above it too, so before computing, each rank receives those rows, its
// halo, from the ranks that own them (the neighbour above, or more than one
// when bands are thinner than the kernel): the classic halo exchange. The
// exchange is posted first and the rows that need no halo are computed
// while it is in flight; then the first K - 1 rows. The rows themselves are
// the serial rung's (padded.hpp), on the rank's own padded band.
#include <algorithm>
#include <vector>

#include "bench/problems/convolution/convolution.hpp"
#include "ladder/mpi.hpp"
#include "padded.hpp"

namespace ladder {
namespace {

class MpiConvolution final : public MpiRung {
 public:
  explicit MpiConvolution(const RungContext& context) : MpiRung(context) {}
  // The halo: K - 1 image rows from the rank above, while this rank's go to the rank below.
  std::optional<std::vector<Message>> communication() const override {
    return std::vector<Message>{{"exchange", double(rows_ - 1) * width_ * sizeof(float), 1}};
  }

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    int shape[4] = {0, 0, 0, 0};  // image H, W, kernel K, L
    if (rank() == 0) {
      const convolution::Sizes sizes = convolution::sizes_of(*inputs);
      shape[0] = sizes.height, shape[1] = sizes.width, shape[2] = sizes.rows, shape[3] = sizes.columns;
      image_ = inputs->at("image").view<float>().data();
      output_ = outputs->at("output").view<float>().data();
    }
    LADDER_MPI(MPI_Bcast(shape, 4, MPI_INT, 0, communicator()));
    height_ = shape[0], width_ = shape[1], rows_ = shape[2], columns_ = shape[3];
    kernel_.resize(static_cast<std::size_t>(rows_) * columns_);
    if (rank() == 0) std::copy_n(inputs->at("kernel").view<float>().data(), kernel_.size(), kernel_.begin());
    // The kernel is small and every rank needs all of it: sent once, untimed.
    LADDER_MPI(MPI_Bcast(kernel_.data(), static_cast<int>(kernel_.size()), MPI_FLOAT, 0, communicator()));

    // Every rank's band of image rows, and of output rows.
    const long out_width = width_ + columns_ - 1;
    bands_.clear(), image_counts_.clear(), image_offsets_.clear(), output_counts_.clear(), output_offsets_.clear();
    for (int r = 0; r < ranks(); ++r) {
      const Part band = part_of(height_, r, ranks());
      bands_.push_back(band);
      image_counts_.push_back(static_cast<int>(band.size() * width_));
      image_offsets_.push_back(static_cast<int>(band.begin * width_));
      const long long out_end = r == ranks() - 1 ? height_ + rows_ - 1 : band.end;
      output_counts_.push_back(static_cast<int>((out_end - band.begin) * out_width));
      output_offsets_.push_back(static_cast<int>(band.begin * out_width));
    }
    const Part mine = bands_[rank()];
    first_output_ = mine.begin;
    output_rows_ = output_counts_[rank()] / out_width;
    // The padded band: K - 1 rows above the first output row (the halo, or
    // zeros above the image) to the last row an output row reads, each row
    // with L - 1 zeros on either side. Rows past the image stay zero.
    padded_width_ = width_ + 2 * (columns_ - 1);
    padded_.assign(static_cast<std::size_t>((output_rows_ + rows_ - 1) * padded_width_), 0.0f);
    band_.resize(static_cast<std::size_t>(mine.size() * width_));
    part_output_.resize(static_cast<std::size_t>(output_rows_ * out_width));
  }

  // Upload: each rank its band of image rows.
  void scatter() override {
    LADDER_MPI(MPI_Scatterv(image_, image_counts_.data(), image_offsets_.data(), MPI_FLOAT, band_.data(),
                            image_counts_[rank()], MPI_FLOAT, 0, communicator()));
  }

  void compute_ranks() override {
    const long halo = rows_ - 1, out_width = width_ + columns_ - 1;
    // Image row y of the band lies at padded row y - first_output_ + halo.
    auto padded_row = [&](long long y) { return padded_.data() + (y - first_output_ + halo) * padded_width_ + columns_ - 1; };
    for (long long y = bands_[rank()].begin; y < bands_[rank()].end; ++y)
      std::copy_n(band_.data() + (y - bands_[rank()].begin) * width_, width_, padded_row(y));

    // The halo exchange: the image rows [first - (K-1), first) that other
    // ranks own come to this rank, and this rank's rows go to the ranks
    // whose halo they are in. Received into a buffer of their own, then
    // copied into the padded band (its rows are not contiguous).
    std::vector<MPI_Request> requests;
    std::vector<std::vector<float>> incoming(ranks());
    const long long need_begin = std::max<long long>(0, first_output_ - halo), need_end = first_output_;
    for (int r = 0; r < ranks(); ++r) {
      if (r == rank()) continue;
      const long long from = std::max(need_begin, bands_[r].begin), to = std::min(need_end, bands_[r].end);
      if (from < to) {  // rank r owns rows of this rank's halo
        incoming[r].resize(static_cast<std::size_t>((to - from) * width_));
        requests.emplace_back();
        LADDER_MPI(MPI_Irecv(incoming[r].data(), static_cast<int>(incoming[r].size()), MPI_FLOAT, r, 0,
                             communicator(), &requests.back()));
      }
      const long long their_begin = std::max<long long>(0, bands_[r].begin - halo);
      const long long send_from = std::max(their_begin, bands_[rank()].begin);
      const long long send_to = std::min(bands_[r].begin, bands_[rank()].end);
      if (send_from < send_to) {  // rows of this rank's band that are in rank r's halo
        requests.emplace_back();
        LADDER_MPI(MPI_Isend(band_.data() + (send_from - bands_[rank()].begin) * width_,
                             static_cast<int>((send_to - send_from) * width_), MPI_FLOAT, r, 0, communicator(),
                             &requests.back()));
      }
    }

    // While the halo travels: the output rows that read only this rank's own rows.
    auto output_row = [&](long row) {
      convolution::PaddedConvolution::convolve_row(padded_.data() + row * padded_width_, padded_width_, kernel_.data(),
                                                   rows_, columns_, part_output_.data() + row * out_width, out_width);
    };
    const long interior = std::min<long>(halo, output_rows_);
    for (long row = interior; row < output_rows_; ++row) output_row(row);

    LADDER_MPI(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
    for (int r = 0; r < ranks(); ++r) {
      if (incoming[r].empty()) continue;
      const long long from = std::max(need_begin, bands_[r].begin);
      for (std::size_t i = 0; i < incoming[r].size() / width_; ++i)
        std::copy_n(incoming[r].data() + i * width_, width_, padded_row(from + static_cast<long long>(i)));
    }
    for (long row = 0; row < interior; ++row) output_row(row);  // the rows that read the halo
  }

  // Download: every rank's output rows back to rank 0.
  void gather() override {
    LADDER_MPI(MPI_Gatherv(part_output_.data(), output_counts_[rank()], MPI_FLOAT, output_, output_counts_.data(),
                           output_offsets_.data(), MPI_FLOAT, 0, communicator()));
  }

 private:
  const float* image_ = nullptr;  // rank 0 only: the harness's arrays
  float* output_ = nullptr;
  long height_ = 0, width_ = 0, rows_ = 0, columns_ = 0, padded_width_ = 0;
  long long first_output_ = 0;
  long output_rows_ = 0;
  std::vector<float> kernel_;
  std::vector<Part> bands_;
  std::vector<int> image_counts_, image_offsets_, output_counts_, output_offsets_;
  std::vector<float> band_, padded_, part_output_;
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, mpi, MpiConvolution);
}  // namespace ladder
