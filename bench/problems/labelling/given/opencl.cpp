// opencl: the cuda rung's label equivalence in OpenCL 1.2
// (kernels/labelling/labelling.cl): tiles labelled by union-find in local
// memory, joined across their borders with atomic_min in global memory,
// then the roots counted per chunk, the chunk counts scanned by one
// work-group, and every pixel numbered by its root's rank into a second
// array. Every access to the forest while it is built is atomic, so no two
// work-items race on it (`ladder check labelling --race`).
//
// Given to both tracks (bench/problems/labelling/given/): the participant's track builds
// the kernels from exercises/labelling/kernels/labelling.cl, where the
// participant writes the first two of the five kernels this host enqueues
// (label_tiles, merge_tile_borders); the numbering kernels are given. The
// kernel file is read at run time: rerun `ladder check` after editing it,
// without rebuilding.
#include "ladder/opencl.hpp"

#include <algorithm>
#include <array>

#include "bench/problems/labelling/given/connectivity.hpp"
#include "ladder/error.hpp"

namespace ladder {
namespace {

constexpr int kTileWidth = 32;
constexpr std::size_t kBorderItems = 64;  // >= TILE_WIDTH + 2 * (TILE_HEIGHT - 1)

class OpenClLabelling final : public OpenClRung {
 public:
  explicit OpenClLabelling(const RungContext& context)
      : OpenClRung(context), connectivity_(labelling::connectivity(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint8_t>();
    labels_ = outputs.at("labels").view<std::int32_t>();
    const auto height = static_cast<cl_int>(inputs.at("image").shape()[0]);
    const auto width = static_cast<cl_int>(inputs.at("image").shape()[1]);
    n_ = static_cast<cl_uint>(image_.size());  // at most 2^31 - 1: validate() refuses more

    // The launch, from the device's largest work-group: tiles 32 wide and
    // up to 16 rows tall, chunks (and the scan) of up to 256 work-items.
    std::size_t max_group = 0;
    LADDER_CL_CHECK(clGetDeviceInfo(device(), CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(max_group), &max_group, nullptr));
    if (max_group < kBorderItems)
      throw DeviceError("the labelling kernels need work-groups of 64 work-items; this device allows " +
                        std::to_string(max_group));
    const int tile_height = static_cast<int>(std::min<std::size_t>(16, max_group / kTileWidth));
    chunk_ = std::min<std::size_t>(256, max_group / 32 * 32);
    // One group per tile, on a grid of (tiles across, tiles down).
    const std::size_t across = ceil_div(std::size_t(width), std::size_t{kTileWidth}),
                      down = ceil_div(std::size_t(height), std::size_t(tile_height));
    tile_group_ = {kTileWidth, std::size_t(tile_height)};
    tiles_grid_ = {across * kTileWidth, down * tile_height};
    borders_grid_ = {across * kBorderItems, down};
    several_tiles_ = across * down > 1;
    chunks_ = ceil_div(n_, chunk_);

    d_image_ = device_buffer<std::uint8_t>(CL_MEM_READ_ONLY, image_.size());
    d_forest_ = device_buffer<cl_int>(CL_MEM_READ_WRITE, labels_.size());
    d_labels_ = device_buffer<cl_int>(CL_MEM_WRITE_ONLY, labels_.size());
    d_root_bits_ = device_buffer<cl_uint>(CL_MEM_READ_WRITE, chunks_ * chunk_ / 32);
    d_word_offsets_ = device_buffer<cl_int>(CL_MEM_READ_WRITE, chunks_ * chunk_ / 32);
    d_chunk_offsets_ = device_buffer<cl_int>(CL_MEM_READ_WRITE, chunks_);

    const std::string options = "-DCONNECTIVITY=" + std::to_string(connectivity_) +
                                " -DTILE_WIDTH=" + std::to_string(kTileWidth) +
                                " -DTILE_HEIGHT=" + std::to_string(tile_height) + " -DCHUNK=" + std::to_string(chunk_) +
                                " -DSCAN_ITEMS=" + std::to_string(chunk_);
    const char* file = "labelling/labelling.cl";
    label_tiles_ = build_kernel(file, "label_tiles", options);
    merge_borders_ = build_kernel(file, "merge_tile_borders", options);
    count_roots_ = build_kernel(file, "count_roots", options);
    scan_counts_ = build_kernel(file, "scan_chunk_counts", options);
    number_ = build_kernel(file, "number_components", options);
    set_arguments(label_tiles_, d_image_.get(), height, width, d_forest_.get());
    set_arguments(merge_borders_, d_image_.get(), height, width, d_forest_.get());
    set_arguments(count_roots_, d_forest_.get(), n_, d_root_bits_.get(), d_word_offsets_.get(), d_chunk_offsets_.get());
    set_arguments(scan_counts_, d_chunk_offsets_.get(), static_cast<cl_uint>(chunks_));
    set_arguments(number_, d_forest_.get(), d_labels_.get(), n_, d_root_bits_.get(), d_word_offsets_.get(),
                  d_chunk_offsets_.get());
  }

  void upload() override { write(d_image_, image_); }

  void compute() override {
    enqueue(label_tiles_, tiles_grid_, tile_group_);
    if (several_tiles_) enqueue(merge_borders_, borders_grid_, {kBorderItems, 1});
    enqueue(count_roots_, chunks_ * chunk_, chunk_);
    enqueue(scan_counts_, chunk_, chunk_);
    enqueue(number_, n_, 0);
  }

  void download() override { read(labels_, d_labels_); }

 private:
  int connectivity_;
  std::span<const std::uint8_t> image_;
  std::span<std::int32_t> labels_;
  cl_uint n_ = 0;
  std::array<std::size_t, 2> tile_group_{}, tiles_grid_{}, borders_grid_{};  // x, y
  bool several_tiles_ = false;
  std::size_t chunk_ = 0, chunks_ = 0;
  ClBuffer<std::uint8_t> d_image_;
  ClBuffer<cl_int> d_forest_;  // each pixel's parent, -1 for background; read-only once built
  ClBuffer<cl_int> d_labels_;  // the output: written from the forest, never read
  ClBuffer<cl_uint> d_root_bits_;
  ClBuffer<cl_int> d_word_offsets_;
  ClBuffer<cl_int> d_chunk_offsets_;  // the chunks' root counts, then (scanned) their offsets
  cl_kernel label_tiles_ = nullptr, merge_borders_ = nullptr, count_roots_ = nullptr, scan_counts_ = nullptr,
            number_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(labelling, opencl, OpenClLabelling);
}  // namespace ladder
