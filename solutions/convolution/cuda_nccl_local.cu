// cuda_nccl_local: cuda_nccl with the data where a distributed program keeps it: each rank holds its own band of
// image rows and its own output rows in its own page-locked host memory, and each GPU copies them over its own link.
// The one change from cuda_nccl is where the rows wait between the steps:
//   cuda_nccl        upload = rank 0's image -> MPI (through rank 0) -> each rank's host -> its GPU
//   cuda_nccl_local  upload = each rank's pinned band -> its GPU, all ranks at once
// Each rank gets its band once, untimed, in prepare: under `ladder solve` it reads its rows from the image's file
// itself, else rank 0 sends them (receive_own_band). Rank 0 gathers the output rows once, untimed, for the check
// (collect_for_check). So the transfer-inclusive time is each rank's own copies and its part of the convolution with the halo exchange, ended
// by the slowest rank, as compute-only is.
#include "ladder/cuda.cuh"
#include "solutions/convolution/bands_on_gpus.cuh"

namespace ladder {
namespace {

class CudaNcclLocalConvolution final : public convolution::BandsOnGpus {
 public:
  explicit CudaNcclLocalConvolution(const RungContext& context) : BandsOnGpus(context) {}
  bool uses_pinned_memory() const override { return true; }  // its own staging, whatever --pinned says

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    BandsOnGpus::prepare_ranks(inputs, outputs);
    // This rank's rows, page-locked: copies from them run at the link's speed.
    band_ = PinnedHostBuffer<float>(band_values());
    part_output_ = PinnedHostBuffer<float>(output_values());
    // Once, untimed: from now on each rank holds its own band (read from the file under `ladder solve`).
    receive_own_band(band_.data(), input_file("image"));
  }
  // Upload: each rank's own band to its GPU, and the weights; no MPI.
  void scatter() override { copy_band_up(band_.data()); }
  // Download: each rank's output rows to its own host memory; no MPI.
  void gather() override { copy_output_down(part_output_.data()); }
  // For the check only: every rank's output rows into rank 0's output.
  void collect_for_check() override { gather_output(part_output_.data()); }

 private:
  PinnedHostBuffer<float> band_, part_output_;  // this rank's, on its host
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, cuda_nccl_local, CudaNcclLocalConvolution);
}  // namespace ladder
