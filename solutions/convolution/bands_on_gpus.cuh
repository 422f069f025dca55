#pragma once
// What the convolution rungs with a GPU for each rank share (cuda_nccl,
// cuda_nccl_local): the mpi rung's bands of rows, cuda_unrolled's kernel on
// each GPU, and the halo exchange overlapped with the interior's work. The
// K - 1 halo rows go GPU to GPU (ncclSend/ncclRecv) on one stream while a
// second convolves the rows that need no halo; the first K - 1 rows follow.
// The overlap hides the exchange behind the interior's work at the price of
// a second launch over K - 1 rows: on four H200s 201.6 against 208.5 us
// without it, on two a wash (solutions/convolution/README.md).
//
// Each rung says where the band and the output rows wait on the host, and
// how they get there: its scatter() and gather(), with the helpers below.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "bench/problems/convolution/convolution.hpp"
#include "kernels/convolution/convolution_unrolled.cuh"
#include "ladder/ceil_div.hpp"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"
#include "ladder/nccl.hpp"

namespace ladder::convolution {
// In an unnamed namespace: each rung's file compiles its own copy of all of
// it. unrolled_weights, the kernel's constant memory, is a symbol of each
// .cu file's own (no relocatable device code); shared inline functions
// would be merged by the linker into one file's copy, which writes one
// file's weights while the kernel of the other reads its own.
namespace {

using Kernel = void (*)(const float*, int, int, int, int, int, float*, int, int);

// cuda_unrolled's choice of instantiation: R rows a pass, the width
// compiled in too for square odd kernels up to 15 × 15.
template <int R>
Kernel unrolled_for(int rows, int columns) {
  return rows == R && columns == R ? convolve_unrolled<R, R> : convolve_unrolled<R, 0>;
}
Kernel kernel_for(int rows_per_pass, int rows, int columns) {
  switch (rows_per_pass) {
    case 1:
      return unrolled_for<1>(rows, columns);
    case 3:
      return unrolled_for<3>(rows, columns);
    case 5:
      return unrolled_for<5>(rows, columns);
    case 7:
      return unrolled_for<7>(rows, columns);
    case 9:
      return unrolled_for<9>(rows, columns);
    case 11:
      return unrolled_for<11>(rows, columns);
    case 13:
      return unrolled_for<13>(rows, columns);
    case 15:
      return unrolled_for<15>(rows, columns);
    default:
      return convolve_unrolled<16, 0>;
  }
}

class BandsOnGpus : public NcclRung {
 public:
  explicit BandsOnGpus(const RungContext& context) : NcclRung(context) {}
  // The halo: K - 1 image rows from the GPU above, while this GPU's go to the one below.
  std::optional<std::vector<Message>> communication() const override {
    return std::vector<Message>{{"exchange", double(halo_) * width_ * sizeof(float), 1}};
  }

 protected:
  // Everything but the host side of this rank's band and output: the GPU, its buffers, NCCL.
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    const cudaDeviceProp& properties = select_gpu();

    int shape[4] = {0, 0, 0, 0};  // image H, W, kernel K, L
    if (rank() == 0) {
      const convolution::Sizes sizes = convolution::sizes_of(*inputs);
      shape[0] = sizes.height, shape[1] = sizes.width, shape[2] = sizes.rows, shape[3] = sizes.columns;
      image_ = inputs->at("image").view<float>().data();
      output_ = outputs->at("output").view<float>().data();
    }
    LADDER_MPI(MPI_Bcast(shape, 4, MPI_INT, 0, communicator()));
    height_ = shape[0], width_ = shape[1], rows_ = shape[2], columns_ = shape[3];
    halo_ = rows_ - 1;
    out_width_ = width_ + columns_ - 1;
    std::vector<float> kernel(static_cast<std::size_t>(rows_) * columns_);
    if (rank() == 0) std::copy_n(inputs->at("kernel").view<float>().data(), kernel.size(), kernel.begin());
    // The kernel is small and every rank needs all of it: sent once, untimed.
    LADDER_MPI(MPI_Bcast(kernel.data(), static_cast<int>(kernel.size()), MPI_FLOAT, 0, communicator()));

    // The weights as cuda_unrolled lays them out: flipped, pass by pass,
    // each column's rows side by side; upload() puts them in constant memory.
    const int rows_per_pass = rows_ <= kUnrolledOnePassRows ? rows_ | 1 : 16;
    passes_ = ceil_div(rows_, rows_per_pass);
    h_weights_.clear();
    for (int pass = 0; pass < passes_; ++pass)
      for (int b = 0; b < columns_; ++b)
        for (int a = pass * rows_per_pass; a < (pass + 1) * rows_per_pass; ++a)
          h_weights_.push_back(a < rows_ ? kernel[(rows_ - 1 - a) * columns_ + (columns_ - 1 - b)] : 0.0f);
    if (h_weights_.size() > kUnrolledConstantFloats)
      throw DeviceError("cuda_nccl: a " + std::to_string(rows_) + "×" + std::to_string(columns_) + " kernel needs " +
                        std::to_string(h_weights_.size() * sizeof(float) / 1024) + " KiB of weights, more than the " +
                        std::to_string(kUnrolledConstantFloats * sizeof(float) / 1024) +
                        " KiB of constant memory cuda_unrolled's kernel reserves");
    const int tile_height = kUnrolledTileHeight + passes_ * rows_per_pass - 1;
    shared_bytes_ =
        std::size_t(unrolled_column_stride(tile_height)) * (kUnrolledTileWidth + columns_ - 1) * sizeof(float);
    if (shared_bytes_ > properties.sharedMemPerBlockOptin)
      throw DeviceError("cuda_nccl: a " + std::to_string(rows_) + "×" + std::to_string(columns_) + " kernel needs a " +
                        std::to_string(shared_bytes_ / 1024) + " KiB shared-memory tile, more than the " +
                        std::to_string(properties.sharedMemPerBlockOptin / 1024) + " KiB a block may have on this GPU");
    convolve_ = kernel_for(rows_per_pass, rows_, columns_);
    LADDER_CUDA_CHECK(
        cudaFuncSetAttribute(convolve_, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes_)));

    // Every rank's band of image rows and of output rows, as the mpi rung's.
    bands_.clear(), output_rows_.clear(), image_counts_.clear(), image_offsets_.clear(), output_counts_.clear(),
        output_offsets_.clear();
    for (int r = 0; r < ranks(); ++r) {
      const Part band = part_of(height_, r, ranks());
      bands_.push_back(band);
      output_rows_.push_back((r == ranks() - 1 ? height_ + halo_ : band.end) - band.begin);
      image_counts_.push_back(static_cast<int>(band.size() * width_));
      image_offsets_.push_back(static_cast<int>(band.begin * width_));
      output_counts_.push_back(static_cast<int>(output_rows_[r] * out_width_));
      output_offsets_.push_back(static_cast<int>(band.begin * out_width_));
    }
    const long long band_rows = bands_[rank()].size(), out_rows = output_rows_[rank()];

    // On the GPU, the band with the K - 1 rows above it: row i is image row
    // first - (K-1) + i. Halo rows above the image are zeroed here and never
    // written; the others come by NCCL in every compute().
    stream_.emplace();  // on this rank's GPU, now current
    interior_stream_.emplace();
    forked_.emplace(CudaEvent::untimed);
    interior_done_.emplace(CudaEvent::untimed);
    d_band_ = DeviceBuffer<float>(static_cast<std::size_t>((halo_ + band_rows) * width_));
    LADDER_CUDA_CHECK(cudaMemsetAsync(d_band_.data(), 0, d_band_.bytes(), stream_->get()));
    // The output rows, below K - 1 rows of scratch: a launch's first K - 1
    // rows read zeros above its image pointer, so the halo rows' launch
    // starts K - 1 rows early and its first rows land in the scratch.
    d_output_ = DeviceBuffer<float>(static_cast<std::size_t>((halo_ + out_rows) * out_width_));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
    connect_gpus();
  }

  void compute_ranks() override {
    const cudaStream_t exchange = stream_->get(), interior = interior_stream_->get();
    const long long first = bands_[rank()].begin, top = first - halo_;  // top: image row of d_band_'s row 0
    // The interior stream starts after what the exchange stream holds.
    LADDER_CUDA_CHECK(cudaEventRecord(forked_->get(), exchange));
    LADDER_CUDA_CHECK(cudaStreamWaitEvent(interior, forked_->get(), 0));

    // The halo exchange, posted first so that NCCL's kernel has its SMs
    // before the interior's blocks fill the GPU. Both sides of every pair
    // work out the same rows (halo_rows), so each send meets its receive.
    LADDER_NCCL(ncclGroupStart());
    for (int r = 0; r < ranks(); ++r) {
      if (r == rank()) continue;
      const Part in = halo_rows(rank(), r), out = halo_rows(r, rank());
      if (in.size() > 0)
        LADDER_NCCL(ncclRecv(d_band_.data() + std::size_t(in.begin - top) * width_, std::size_t(in.size()) * width_,
                             ncclFloat, r, nccl(), exchange));
      if (out.size() > 0)
        LADDER_NCCL(ncclSend(d_band_.data() + std::size_t(out.begin - top) * width_, std::size_t(out.size()) * width_,
                             ncclFloat, r, nccl(), exchange));
    }
    LADDER_NCCL(ncclGroupEnd());

    // Meanwhile, the rows that read only this rank's own band: the image
    // pointer at the band's first row, the output's first K - 1 rows wrong
    // (zeros for the halo) until the launch below writes them again.
    const long long out_rows = output_rows_[rank()], halo_out_rows = std::min<long long>(halo_, out_rows);
    float* d_output = d_output_.data() + std::size_t(halo_) * out_width_;
    if (out_rows > halo_out_rows)
      convolve(d_band_.data() + std::size_t(halo_) * width_, bands_[rank()].size(), d_output, out_rows, interior);
    LADDER_CUDA_CHECK(cudaEventRecord(interior_done_->get(), interior));
    LADDER_CUDA_CHECK(cudaStreamWaitEvent(exchange, interior_done_->get(), 0));

    // After both: the first K - 1 output rows, from the image pointer at the
    // halo's first row; the launch's first K - 1 rows go to the scratch.
    if (halo_out_rows > 0)
      convolve(d_band_.data(), halo_ + bands_[rank()].size(), d_output_.data(), halo_ + halo_out_rows, exchange);
    LADDER_CUDA_CHECK(cudaStreamSynchronize(exchange));
  }

  // This rank's values of the image (its band of rows) and of the output.
  std::size_t band_values() const { return static_cast<std::size_t>(bands_[rank()].size() * width_); }
  std::size_t output_values() const { return static_cast<std::size_t>(output_rows_[rank()] * out_width_); }

  // Through rank 0: each rank its band of image rows from rank 0's image
  // into `band` (band_values() long); each rank's output rows from `part`
  // (output_values() long) into rank 0's output.
  void scatter_image(float* band) const {
    LADDER_MPI(MPI_Scatterv(image_, image_counts_.data(), image_offsets_.data(), MPI_FLOAT, band,
                            image_counts_[rank()], MPI_FLOAT, 0, communicator()));
  }
  void gather_output(const float* part) const {
    LADDER_MPI(MPI_Gatherv(part, output_counts_[rank()], MPI_FLOAT, output_, output_counts_.data(),
                           output_offsets_.data(), MPI_FLOAT, 0, communicator()));
  }

  // Once, untimed, for a rung whose band stays on each rank: each rank its
  // band into `band`, read by the rank itself from the image's file where
  // `ladder solve` read one unchanged, else sent by rank 0 (receive_own_part).
  bool receive_own_band(float* band, const std::optional<InputFile>& file) const {
    return receive_own_part(file, image_, {image_counts_, image_offsets_}, MPI_FLOAT, band, communicator());
  }

  // Between this rank's host and its GPU: the band (below the halo rows)
  // and the weights up; the output rows down.
  void copy_band_up(const float* band) {
    LADDER_CUDA_CHECK(cudaMemcpyAsync(d_band_.data() + std::size_t(halo_) * width_, band, band_values() * sizeof(float),
                                      cudaMemcpyHostToDevice, stream_->get()));
    LADDER_CUDA_CHECK(cudaMemcpyToSymbolAsync(unrolled_weights, h_weights_.data(), h_weights_.size() * sizeof(float), 0,
                                              cudaMemcpyHostToDevice, stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }
  void copy_output_down(float* part) {
    LADDER_CUDA_CHECK(cudaMemcpyAsync(part, d_output_.data() + std::size_t(halo_) * out_width_,
                                      output_values() * sizeof(float), cudaMemcpyDeviceToHost, stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }

 private:
  // The image rows of `receiver`'s halo that `owner` holds (none where the
  // receiver has no output rows): the K - 1 rows above its band, cut to the image.
  Part halo_rows(int receiver, int owner) const {
    if (output_rows_[receiver] == 0) return {};
    const long long need_begin = std::max<long long>(0, bands_[receiver].begin - halo_);
    const long long from = std::max(need_begin, bands_[owner].begin);
    const long long to = std::min(bands_[receiver].begin, bands_[owner].end);
    return from < to ? Part{from, to} : Part{};
  }

  // cuda_unrolled's launch: output row y of `out` from image rows y - (K-1) .. y
  // of `image`, zeros outside its `height` rows.
  void convolve(const float* image, long long height, float* out, long long out_height, cudaStream_t stream) const {
    const dim3 grid(ceil_div(out_width_, kUnrolledTileWidth),
                    static_cast<unsigned>(ceil_div(out_height, kUnrolledTileHeight)));
    convolve_<<<grid, dim3(kUnrolledThreadsX, kUnrolledThreadsY), shared_bytes_, stream>>>(
        image, static_cast<int>(height), width_, rows_, columns_, passes_, out, static_cast<int>(out_height),
        out_width_);
    LADDER_CUDA_CHECK_LAUNCH();
  }

  const float* image_ = nullptr;  // rank 0 only: the harness's arrays
  float* output_ = nullptr;
  int height_ = 0, width_ = 0, rows_ = 0, columns_ = 0, halo_ = 0, out_width_ = 0, passes_ = 1;
  std::vector<float> h_weights_;
  Kernel convolve_ = nullptr;
  std::size_t shared_bytes_ = 0;
  std::vector<Part> bands_;
  std::vector<long long> output_rows_;
  std::vector<int> image_counts_, image_offsets_, output_counts_, output_offsets_;
  DeviceBuffer<float> d_band_, d_output_;
  std::optional<CudaStream> stream_, interior_stream_;  // after the buffers: destroying a stream waits for it
  std::optional<CudaEvent> forked_, interior_done_;
};

}  // namespace
}  // namespace ladder::convolution
