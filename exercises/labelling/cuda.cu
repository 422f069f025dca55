// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// cuda: label equivalence on the device (kernels/labelling.cuh): tiles
// labelled by union-find in shared memory, joined across their borders in
// global memory, then numbered as scipy numbers them. You write the first
// two kernels; the host side and the numbering kernels are given.
#include "kernels/labelling.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"
#include "bench/problems/labelling/given/connectivity.hpp"
// ==== end

namespace ladder {
namespace {

// ==== exercise only
class CudaLabelling final : public CudaRung {
  // ==== end
 public:
  // ==== exercise only
  explicit CudaLabelling(const RungContext& context)
      : CudaRung(context), connectivity_(labelling::connectivity(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint8_t>();
    labels_ = outputs.at("labels").view<std::int32_t>();
    height_ = static_cast<int>(inputs.at("image").shape()[0]);
    width_ = static_cast<int>(inputs.at("image").shape()[1]);
    n_ = static_cast<unsigned>(image_.size());  // at most 2^31 - 1: validate() refuses more
    if (properties().warpSize != 32)            // the kernels read a tile row with one ballot
      throw DeviceError("the labelling kernels need warps of 32 threads; this device's are " +
                        std::to_string(properties().warpSize));
    // The launch: one block per tile, one block per chunk of kChunk pixels
    // (a 1-D grid, whose 2^31 - 1 blocks cover any image validate() accepts).
    tiles_across_ = ceil_div(width_, kTileWidth);
    tiles_ = static_cast<unsigned>(tiles_across_) * static_cast<unsigned>(ceil_div(height_, kTileHeight));
    chunks_ = ceil_div(n_, kChunk);
    d_image_ = device_buffer<std::uint8_t>(image_.size());
    d_forest_ = device_buffer<std::int32_t>(labels_.size());
    d_labels_ = device_buffer<std::int32_t>(labels_.size());
    d_root_bits_ = device_buffer<unsigned>(std::size_t{chunks_} * (kChunk / 32));
    d_word_offsets_ = device_buffer<int>(std::size_t{chunks_} * (kChunk / 32));
    d_chunk_offsets_ = device_buffer<int>(chunks_);
#ifdef LADDER_TODO_CUDA_KERNEL  // kernels/labelling.cuh still holds its TODO line
    LADDER_TODO(LADDER_TODO_CUDA_KERNEL);
#endif
  }

  void upload() override { copy_to_device(d_image_, image_); }

  void compute() override {
    // ==== end
    if (connectivity_ == 4)
      label<4>();
    else
      label<8>();
    // ==== exercise only
    count_roots<<<chunks_, kCountThreads, 0, stream()>>>(d_forest_.data(), n_, d_root_bits_.data(),
                                                         d_word_offsets_.data(), d_chunk_offsets_.data());
    LADDER_CUDA_CHECK_LAUNCH();
    scan_chunk_counts<<<1, kScanThreads, 0, stream()>>>(d_chunk_offsets_.data(), chunks_);
    LADDER_CUDA_CHECK_LAUNCH();
    number_components<<<ceil_div(n_, kNumberThreads), kNumberThreads, 0, stream()>>>(
        d_forest_.data(), d_labels_.data(), n_, d_root_bits_.data(), d_word_offsets_.data(), d_chunk_offsets_.data());
    LADDER_CUDA_CHECK_LAUNCH();
    // ==== end
  }

  // ==== exercise only
  void download() override { copy_to_host(labels_, d_labels_); }

 private:
  static constexpr unsigned kNumberThreads = 256;
  // ==== end

  template <int Connectivity>
  void label() {
    // ==== exercise only
    label_tiles<Connectivity><<<tiles_, dim3(kTileWidth, kTileWarps), 0, stream()>>>(d_image_.data(), height_, width_,
                                                                                     tiles_across_, d_forest_.data());
    // ==== end
    LADDER_CUDA_CHECK_LAUNCH();
    // ==== exercise only
    if (tiles_ == 1) return;  // no borders to join
    merge_tile_borders<Connectivity>
        <<<tiles_, kBorderThreads, 0, stream()>>>(d_image_.data(), height_, width_, tiles_across_, d_forest_.data());
    LADDER_CUDA_CHECK_LAUNCH();
    // ==== end
  }

  // ==== exercise only
  int connectivity_;
  std::span<const std::uint8_t> image_;
  std::span<std::int32_t> labels_;
  int height_ = 0, width_ = 0, tiles_across_ = 1;
  unsigned n_ = 0, tiles_ = 1, chunks_ = 1;
  DeviceBuffer<std::uint8_t> d_image_;
  DeviceBuffer<std::int32_t> d_forest_;  // the union-find forest: parent[i], -1 for background
  DeviceBuffer<std::int32_t> d_labels_;  // scipy's numbers
  DeviceBuffer<unsigned> d_root_bits_;
  DeviceBuffer<int> d_word_offsets_;
  DeviceBuffer<int> d_chunk_offsets_;  // the chunks' root counts, then (scanned) their offsets
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(labelling, cuda, CudaLabelling);
}  // namespace ladder
