// cuda_nccl: the mpi rung's bands of rows, a GPU for each rank (BandsOnGpus, bands_on_gpus.cuh: cuda_unrolled's
// kernel, the halo rows GPU to GPU by NCCL, overlapped with the interior's work). The data goes as the mpi rung's:
// rank 0's image through MPI to each rank's host, then up to its GPU; the output rows the way back.
#include <vector>

#include "ladder/mpi.hpp"
#include "solutions/convolution/bands_on_gpus.cuh"

namespace ladder {
namespace {

class CudaNcclConvolution final : public convolution::BandsOnGpus {
 public:
  explicit CudaNcclConvolution(const RungContext& context) : BandsOnGpus(context) {}

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    BandsOnGpus::prepare_ranks(inputs, outputs);
    band_.resize(band_values());
    part_output_.resize(output_values());
  }
  // Upload: each rank its band of image rows, through MPI to its host, then below the halo on its GPU; and the weights.
  void scatter() override {
    scatter_image(band_.data());
    copy_band_up(band_.data());
  }
  // Download: every rank's output rows to its host, then to rank 0.
  void gather() override {
    copy_output_down(part_output_.data());
    gather_output(part_output_.data());
  }

 private:
  std::vector<float> band_, part_output_;  // this rank's, on its host
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, cuda_nccl, CudaNcclConvolution);
}  // namespace ladder
