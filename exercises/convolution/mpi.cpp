// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// mpi: domain decomposition. Each rank owns a band of image rows and
// computes the output rows that end in its band (the last rank also the
// K - 1 rows past the image). An output row reads the K - 1 image rows
// above it too: before computing its first K - 1 rows, each rank needs
// those rows, its halo, from the ranks that own them. The bands, the
// scatter and the sums are given; you write the halo exchange and the
// gather (task sheet, step 5).
#include "ladder/error.hpp"
// ==== end
#include <algorithm>
#include <vector>

#include "bench/problems/convolution/convolution.hpp"
#include "ladder/mpi.hpp"

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

    // ==== yours
    // TODO: the halo exchange, started here and finished below (task sheet,
    // step 5). This rank's first output row, first_output_, reads the image
    // rows from first_output_ - halo on (none above row 0), and every rank r
    // owns the image rows [bands_[r].begin, bands_[r].end), some of them
    // empty. Post a receive (MPI_Irecv) for the rows of this rank's halo that
    // each other rank owns, into a buffer of its own, and a send (MPI_Isend)
    // of the rows of band_ that lie in each other rank's halo. Bands may be
    // thinner than the kernel: a halo can come from several ranks. Keep the
    // requests: the rows below are computed while the messages travel.
    LADDER_TODO("mpi: exchange the halo in compute_ranks() of exercises/convolution/mpi.cpp, then delete this line");
    // ==== end

    // While the halo travels: the output rows that read only this rank's own rows.
    // ==== exercise only: the serial rung's sums, plain (the solution calls padded.hpp's vectorised row)
    auto output_row = [&](long row) {
      float* out = part_output_.data() + row * out_width;
      std::fill(out, out + out_width, 0.0f);
      // Output (row, x) reads padded (row + a, x + b) with weight kernel[K-1-a][L-1-b].
      for (long a = 0; a < rows_; ++a)
        for (long b = 0; b < columns_; ++b) {
          const float w = kernel_[(rows_ - 1 - a) * columns_ + (columns_ - 1 - b)];
          const float* in = padded_.data() + (row + a) * padded_width_ + b;
          for (long x = 0; x < out_width; ++x) out[x] += w * in[x];
        }
    };
    // ==== end
    const long interior = std::min<long>(halo, output_rows_);
    for (long row = interior; row < output_rows_; ++row) output_row(row);

    // ==== yours
    // TODO: wait for every request (MPI_Waitall), then copy each row you
    // received into the padded band: image row y goes to padded_row(y).
    // ==== end
    for (long row = 0; row < interior; ++row) output_row(row);  // the rows that read the halo
  }

  // Download: every rank's output rows back to rank 0.
  void gather() override {
    // ==== yours
    // TODO: every rank's part_output_ (output_counts_[rank()] floats) into
    // output_ on rank 0, at its offset (MPI_Gatherv; prepare_ranks made the
    // counts and offsets). Which rank has more output rows than image rows?
    LADDER_TODO("mpi: gather the output rows in gather() of exercises/convolution/mpi.cpp, then delete this line");
    // ==== end
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
