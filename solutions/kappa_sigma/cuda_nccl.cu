// cuda_nccl: the mpi rung's split of the sky, a GPU for each rank, each running the cuda rung's loop on its part.
// Before each clip_select, ncclAllReduce adds every GPU's block sums and histograms, so that every rank selects from
// the same totals and keeps the same state: three rounds of a few tens of kB per iteration, the latency lesson
// (the persistent kernel cannot stop mid-launch for NCCL, so the host-driven loop is the one split).
#include <algorithm>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/problems/kappa_sigma/given/clip.hpp"
#include "kernels/kappa_sigma/kappa_sigma.cuh"
#include "ladder/cuda.cuh"
#include "ladder/nccl.hpp"

namespace ladder {
namespace {

class CudaNcclKappaSigma final : public NcclRung {
 public:
  explicit CudaNcclKappaSigma(const RungContext& context)
      : NcclRung(context), kappa_(kappa_sigma::kappa_of(context.params)) {}
  // Each iteration queued: the block sums with the top digit's histogram (one group), then two histograms.
  std::optional<std::vector<Message>> communication() const override {
    const double first = double(d_partials_.bytes() + kClipBuckets * sizeof(unsigned));
    return std::vector<Message>{{"allreduce", first, double(queued_)},
                                {"allreduce", 2 * kClipBuckets * sizeof(unsigned), 2.0 * queued_}};
  }

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    const cudaDeviceProp& properties = select_gpu();

    long long n = 0;
    if (rank() == 0) {
      image_ = inputs->at("image").view<float>().data();
      n = static_cast<long long>(inputs->at("image").size());
      mask_ = outputs->at("mask").view<std::uint8_t>().data();
      statistics_ = outputs->at("statistics").view<double>().data();
    }
    LADDER_MPI(MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, communicator()));
    n_ = static_cast<unsigned>(n);  // the kernels count in unsigned, as the cuda rung's
    parts_ = parts_of(n, ranks());
    const std::size_t mine = static_cast<std::size_t>(parts_.counts[rank()]);
    sky_.resize(mine);
    part_mask_.resize(mine);

    stream_.emplace();  // on this rank's GPU, now current
    d_image_ = DeviceBuffer<float>(mine);
    d_first_ = DeviceBuffer<float>(1);
    d_mask_ = DeviceBuffer<std::uint8_t>(mine);
    d_statistics_ = DeviceBuffer<double>(7);
    d_state_ = DeviceBuffer<ClipState>(1);
    // clip_select adds up `blocks_` block sums, so every rank must have as
    // many: the cuda rung's grid for the largest part (rank 0's), the
    // smallest of the ranks' if their GPUs differ.
    int per_sm = 0;
    LADDER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, clip_survey, kClipThreads, 0));
    const std::size_t wanted = ceil_div(std::max<std::size_t>(1, static_cast<std::size_t>(parts_.counts[0])), kClipThreads);
    blocks_ =
        static_cast<unsigned>(std::min<std::size_t>(wanted, std::size_t(per_sm) * properties.multiProcessorCount));
    LADDER_MPI(MPI_Allreduce(MPI_IN_PLACE, &blocks_, 1, MPI_UNSIGNED, MPI_MIN, communicator()));
    d_partials_ = DeviceBuffer<double>(3 * std::size_t{blocks_});
    d_counts_ = DeviceBuffer<unsigned>(2 * kClipBuckets);
    // clip_select clears the histograms after reading them: zero them once.
    LADDER_CUDA_CHECK(cudaMemsetAsync(d_counts_.data(), 0, d_counts_.bytes(), stream_->get()));
    h_done_ = PinnedHostBuffer<unsigned>(1);  // pinned: the flag's copy is truly async
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
    connect_gpus();
  }

  // Upload: each rank its part of the sky, through MPI to its host, then to
  // its GPU; and the sky's first value, the shift every rank's sums start from.
  void scatter() override {
    LADDER_MPI(MPI_Scatterv(image_, parts_.counts.data(), parts_.offsets.data(), MPI_FLOAT, sky_.data(), parts_.counts[rank()], MPI_FLOAT, 0,
                            communicator()));
    float first = rank() == 0 ? image_[0] : 0.0f;
    LADDER_MPI(MPI_Bcast(&first, 1, MPI_FLOAT, 0, communicator()));
    LADDER_CUDA_CHECK(cudaMemcpyAsync(d_image_.data(), sky_.data(), sky_.size() * sizeof(float), cudaMemcpyHostToDevice,
                                      stream_->get()));
    LADDER_CUDA_CHECK(cudaMemcpyAsync(d_first_.data(), &first, sizeof(float), cudaMemcpyHostToDevice, stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));  // also before `first` goes out of scope
  }

  void compute_ranks() override {
    // The state starts from the whole sky's count and first value, on every rank alike.
    clip_start<<<1, 1, 0, stream_->get()>>>(d_first_.data(), n_, d_state_.data());
    LADDER_CUDA_CHECK_LAUNCH();
    // Each iteration removes at least one value, so there are at most n + 1.
    // Every rank reads the same flag after the same iterations, so every
    // rank queues the same NCCL calls: none waits for a call that never comes.
    // On several ranks a pass queued after the end costs three allreduces, so
    // the flag is read after every pass there; on one, every 4 (the cuda rung's).
    const std::size_t per_check = ranks() > 1 ? 1 : kIterationsPerCheck;
    for (std::size_t iterations = 0;; iterations += per_check) {
      if (iterations > std::size_t{n_} + 1) throw std::logic_error("kappa_sigma cuda_nccl: the loop did not end");
      for (std::size_t k = 0; k < per_check; ++k) iterate();
      const auto* d_done = reinterpret_cast<const std::byte*>(d_state_.data()) + offsetof(ClipState, done);
      LADDER_CUDA_CHECK(
          cudaMemcpyAsync(h_done_.data(), d_done, sizeof(unsigned), cudaMemcpyDeviceToHost, stream_->get()));
      LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
      if (*h_done_.data()) {
        queued_ = iterations + per_check;
        break;
      }
    }
    clip_mask<<<blocks_, kClipThreads, 0, stream_->get()>>>(d_image_.data(), local_n(), d_state_.data(), d_mask_.data(),
                                                            d_statistics_.data());
    LADDER_CUDA_CHECK_LAUNCH();
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }

  // Download: the mask's parts to rank 0 (every rank's statistics are the same: rank 0's are taken).
  void gather() override {
    LADDER_CUDA_CHECK(
        cudaMemcpyAsync(part_mask_.data(), d_mask_.data(), part_mask_.size(), cudaMemcpyDeviceToHost, stream_->get()));
    if (rank() == 0)
      LADDER_CUDA_CHECK(cudaMemcpyAsync(statistics_, d_statistics_.data(), d_statistics_.bytes(),
                                        cudaMemcpyDeviceToHost, stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
    LADDER_MPI(MPI_Gatherv(part_mask_.data(), parts_.counts[rank()], MPI_UNSIGNED_CHAR, mask_, parts_.counts.data(), parts_.offsets.data(),
                           MPI_UNSIGNED_CHAR, 0, communicator()));
  }

 private:
  // Iterations queued between two reads of the done flag on one rank, as in the cuda rung.
  static constexpr std::size_t kIterationsPerCheck = 4;

  unsigned local_n() const { return static_cast<unsigned>(parts_.counts[rank()]); }

  // The cuda rung's iteration on this rank's part, each count made global
  // before clip_select reads it. Once the state is done, every kernel
  // returns at once; the allreduces still run, on every rank alike.
  void iterate() {
    const cudaStream_t stream = stream_->get();
    clip_survey<<<blocks_, kClipThreads, 0, stream>>>(d_image_.data(), local_n(), d_state_.data(), d_partials_.data(),
                                                      d_counts_.data());
    LADDER_CUDA_CHECK_LAUNCH();
    // The block sums element by element (every rank has blocks_ of them) and the top digit's histogram.
    LADDER_NCCL(ncclGroupStart());
    LADDER_NCCL(ncclAllReduce(d_partials_.data(), d_partials_.data(), d_partials_.size(), ncclDouble, ncclSum,
                              nccl(), stream));
    LADDER_NCCL(ncclAllReduce(d_counts_.data(), d_counts_.data(), kClipBuckets, ncclUint32, ncclSum,
                              nccl(), stream));
    LADDER_NCCL(ncclGroupEnd());
    select(0);
    for (int pass = 1; pass <= 2; ++pass) {
      clip_refine<<<blocks_, kClipThreads, 0, stream>>>(d_image_.data(), local_n(), d_state_.data(), d_counts_.data(),
                                                        pass);
      LADDER_CUDA_CHECK_LAUNCH();
      // Both middle values' histograms of the next digit.
      LADDER_NCCL(ncclAllReduce(d_counts_.data(), d_counts_.data(), 2 * kClipBuckets, ncclUint32, ncclSum,
                                nccl(), stream));
      select(pass);
    }
  }

  void select(int pass) {
    clip_select<<<1, kClipThreads, 0, stream_->get()>>>(d_state_.data(), d_partials_.data(), blocks_, d_counts_.data(),
                                                        pass, kappa_);
    LADDER_CUDA_CHECK_LAUNCH();
  }

  double kappa_;
  const float* image_ = nullptr;  // rank 0 only: the harness's arrays
  std::uint8_t* mask_ = nullptr;
  double* statistics_ = nullptr;
  unsigned n_ = 0;                   // the whole sky's values
  Parts parts_;  // every rank's part
  std::vector<float> sky_;           // this rank's part, on its host
  std::vector<std::uint8_t> part_mask_;
  unsigned blocks_ = 1;
  std::size_t queued_ = 0;  // iterations the last compute queued
  DeviceBuffer<float> d_image_, d_first_;
  DeviceBuffer<std::uint8_t> d_mask_;
  DeviceBuffer<double> d_statistics_, d_partials_;
  DeviceBuffer<ClipState> d_state_;
  DeviceBuffer<unsigned> d_counts_;
  PinnedHostBuffer<unsigned> h_done_;
  std::optional<CudaStream> stream_;  // after the buffers: destroying a stream waits for it
};

}  // namespace
LADDER_REGISTER_RUNG(kappa_sigma, cuda_nccl, CudaNcclKappaSigma);
}  // namespace ladder
