// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// mpi: the stack split by frames. A frame's median needs nothing from any
// other frame, so each rank filters its own frames and no message passes
// while computing: the embarrassingly parallel lesson. What is left is the
// traffic: whole frames out to the ranks and back, in counts that differ
// from rank to rank, and none at all for a rank of a stack of fewer frames
// than ranks. The shape, the frame's datatype and the medians are given;
// you write the split, the scatter and the gather (task sheet, step 5).
#include <algorithm>
#include <cstddef>

#include "bench/problems/median_filter/median_filter.hpp"
#include "ladder/error.hpp"
// ==== end
#include <optional>
#include <vector>

#include "ladder/mpi.hpp"

namespace ladder {
namespace {

class MpiMedianFilter final : public MpiRung {
 public:
  explicit MpiMedianFilter(const RungContext& context)
      : MpiRung(context), settings_(median_filter::settings_of(context.params)) {}
  // ==== exercise only
  ~MpiMedianFilter() override {
    if (frame_type_ != MPI_DATATYPE_NULL) MPI_Type_free(&frame_type_);
  }
  // ==== end
  // Its ranks send nothing while computing.
  std::optional<std::vector<Message>> communication() const override { return std::vector<Message>{}; }

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    // ==== exercise only: what the solution's FramesOfRanks (frames_of_ranks.hpp) does, but the split
    long long shape[4] = {0, 0, 0, 0};  // frames, height, width, dtype
    if (rank() == 0) {
      const median_filter::Stack stack = median_filter::stack_of(inputs->at("image"));
      shape[0] = static_cast<long long>(stack.frames), shape[1] = static_cast<long long>(stack.height);
      shape[2] = static_cast<long long>(stack.width), shape[3] = static_cast<long long>(inputs->at("image").dtype());
      image_ = inputs->at("image").raw();
      output_ = outputs->at("output").raw();
    }
    LADDER_MPI(MPI_Bcast(shape, 4, MPI_LONG_LONG, 0, communicator()));
    stack_ = {static_cast<std::size_t>(shape[0]), static_cast<std::size_t>(shape[1]),
              static_cast<std::size_t>(shape[2])};
    dtype_ = static_cast<DType>(shape[3]);
    frame_bytes_ = stack_.frame_pixels() * dtype_size(dtype_);
    // A frame travels as one element of a datatype of its bytes, so that
    // counts in frames stay small where a stack's bytes pass an int's range.
    if (frame_type_ != MPI_DATATYPE_NULL) LADDER_MPI(MPI_Type_free(&frame_type_));
    LADDER_MPI(MPI_Type_contiguous(static_cast<int>(frame_bytes_), MPI_BYTE, &frame_type_));
    LADDER_MPI(MPI_Type_commit(&frame_type_));
    // ==== end
    // ==== yours
    // TODO: the split (task sheet, step 5). For every rank r of ranks():
    // frame_counts_[r], how many of the stack_.frames frames rank r
    // filters, and frame_offsets_[r], the index of its first frame in the
    // stack, as MPI_Scatterv and MPI_Gatherv take them. Whole frames, as
    // even as can be (no rank more than one frame more than another), each
    // frame on one rank only. There may be more ranks than frames.
    LADDER_TODO(
        "mpi: share the frames among the ranks in prepare_ranks() of exercises/median_filter/mpi.cpp, then delete "
        "this line");
    // ==== end
    // ==== exercise only
    frames_in_.resize(static_cast<std::size_t>(frame_counts_[rank()]) * frame_bytes_);
    frames_out_.resize(frames_in_.size());
    // ==== end
  }

  // Upload: each rank its frames.
  // ==== yours (in the solution, frames_of_ranks.hpp's scatter)
  void scatter() override {
    // TODO: rank 0's image_, the whole stack, to every rank's frames_in_,
    // frame_counts_[r] frames from frame offset frame_offsets_[r] to rank r
    // (MPI_Scatterv, counted in frames: frame_type_). image_ is rank 0's
    // only; every rank calls the scatter, one with no frames too.
    LADDER_TODO("mpi: scatter the frames in scatter() of exercises/median_filter/mpi.cpp, then delete this line");
  }
  // ==== end

  void compute_ranks() override {
    // ==== exercise only: naive.cpp's median with std::nth_element (the solution runs the serial rung's network)
    const median_filter::Stack mine{static_cast<std::size_t>(frame_counts_[rank()]), stack_.height, stack_.width};
    median_filter::with_pixel_type(dtype_, [&](auto tag) {
      using T = decltype(tag);
      using median_filter::reflect;
      const long height = long(mine.height), width = long(mine.width), r = settings_.radius();
      std::vector<T> window;
      for (std::size_t f = 0; f < mine.frames; ++f) {
        const T* frame = reinterpret_cast<const T*>(frames_in_.data()) + f * mine.frame_pixels();
        T* result = reinterpret_cast<T*>(frames_out_.data()) + f * mine.frame_pixels();
        for (long y = 0; y < height; ++y)
          for (long x = 0; x < width; ++x) {
            window.clear();
            for (long i = -r; i <= r; ++i)
              for (long j = -r; j <= r; ++j)
                window.push_back(frame[reflect(y + i, height) * width + reflect(x + j, width)]);
            std::nth_element(window.begin(), window.begin() + window.size() / 2, window.end());
            result[y * width + x] = median_filter::choose(frame[y * width + x], window[window.size() / 2], settings_);
          }
      }
    });
    // ==== end
  }

  // Download: the filtered frames back to rank 0.
  // ==== yours (in the solution, frames_of_ranks.hpp's gather)
  void gather() override {
    // TODO: every rank's frames_out_ into rank 0's output_, each rank's
    // frames at its frame offset (MPI_Gatherv, counted in frames).
    LADDER_TODO("mpi: gather the frames in gather() of exercises/median_filter/mpi.cpp, then delete this line");
  }
  // ==== end

 private:
  median_filter::Settings settings_;
  // ==== exercise only: what the solution's FramesOfRanks (frames_of_ranks.hpp) keeps
  const std::byte* image_ = nullptr;  // rank 0 only: the harness's arrays
  std::byte* output_ = nullptr;
  median_filter::Stack stack_;  // the whole stack
  DType dtype_ = DType::f32;
  std::size_t frame_bytes_ = 0;
  MPI_Datatype frame_type_ = MPI_DATATYPE_NULL;  // one frame
  std::vector<int> frame_counts_, frame_offsets_;  // every rank's frames (yours, in prepare_ranks)
  // ==== end
  // This rank's frames, in and out, as bytes of whatever the pixel type is
  // (vector<std::byte> is aligned for any scalar type through operator new).
  std::vector<std::byte> frames_in_, frames_out_;
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, mpi, MpiMedianFilter);
}  // namespace ladder
