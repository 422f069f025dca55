#pragma once
// The split by frames that the mpi and cuda_nccl rungs share: rank 0 tells
// every rank the stack's shape and pixel type, and each rank gets whole
// frames (parts_of: the first frames % ranks ranks one more). A frame
// travels as one MPI datatype of its bytes, so that the counts of the
// scatter and gather stay small where a stack's bytes pass an int's range.
#include <mpi.h>

#include <cstddef>
#include <optional>
#include <vector>

#include "bench/problems/median_filter/median_filter.hpp"
#include "ladder/mpi.hpp"

namespace ladder::median_filter {

class FramesOfRanks {
 public:
  // Collective: every rank constructs one; `inputs` and `outputs` are the
  // harness's arrays on rank 0 and nullptr elsewhere.
  FramesOfRanks(const Arrays* inputs, Arrays* outputs, int rank, int ranks, MPI_Comm communicator)
      : rank_(rank), communicator_(communicator) {
    long long shape[4] = {0, 0, 0, 0};  // frames, height, width, dtype
    if (rank == 0) {
      const Stack stack = stack_of(inputs->at("image"));
      shape[0] = static_cast<long long>(stack.frames), shape[1] = static_cast<long long>(stack.height);
      shape[2] = static_cast<long long>(stack.width), shape[3] = static_cast<long long>(inputs->at("image").dtype());
      image_ = inputs->at("image").raw();
      output_ = outputs->at("output").raw();
    }
    LADDER_MPI(MPI_Bcast(shape, 4, MPI_LONG_LONG, 0, communicator));
    stack = {static_cast<std::size_t>(shape[0]), static_cast<std::size_t>(shape[1]), static_cast<std::size_t>(shape[2])};
    dtype = static_cast<DType>(shape[3]);
    frame_bytes = stack.frame_pixels() * dtype_size(dtype);
    LADDER_MPI(MPI_Type_contiguous(static_cast<int>(frame_bytes), MPI_BYTE, &frame_type_));
    LADDER_MPI(MPI_Type_commit(&frame_type_));
    parts = parts_of(static_cast<long long>(stack.frames), ranks);
  }
  ~FramesOfRanks() { MPI_Type_free(&frame_type_); }
  FramesOfRanks(const FramesOfRanks&) = delete;
  FramesOfRanks& operator=(const FramesOfRanks&) = delete;

  // This rank's frames (none where there are more ranks than frames).
  Stack mine() const { return {static_cast<std::size_t>(parts.counts[rank_]), stack.height, stack.width}; }
  std::size_t my_bytes() const { return mine().frames * frame_bytes; }

  // Once, untimed, for a rung whose frames stay on each rank: each rank its
  // frames into `frames` (my_bytes() long), read by the rank itself from the
  // image's file where `ladder solve` read one unchanged, else sent by rank 0
  // (receive_own_part). True where they came from the file.
  bool receive_own_frames(std::byte* frames, const std::optional<InputFile>& file) const {
    return receive_own_part(file, image_, parts, frame_type_, frames, communicator_);
  }
  // Upload: each rank its frames, from rank 0's image into `frames` (my_bytes() long).
  void scatter(std::byte* frames) const {
    LADDER_MPI(MPI_Scatterv(image_, parts.counts.data(), parts.offsets.data(), frame_type_, frames,
                            parts.counts[rank_], frame_type_, 0, communicator_));
  }
  // Download: each rank's filtered `frames` back into rank 0's output.
  void gather(const std::byte* frames) const {
    LADDER_MPI(MPI_Gatherv(frames, parts.counts[rank_], frame_type_, output_, parts.counts.data(),
                           parts.offsets.data(), frame_type_, 0, communicator_));
  }

  Stack stack;  // the whole stack
  DType dtype = DType::f32;
  std::size_t frame_bytes = 0;
  Parts parts;  // every rank's frames

 private:
  int rank_ = 0;
  MPI_Comm communicator_;
  const void* image_ = nullptr;  // rank 0 only: the harness's arrays
  void* output_ = nullptr;
  MPI_Datatype frame_type_ = MPI_DATATYPE_NULL;
};

}  // namespace ladder::median_filter
