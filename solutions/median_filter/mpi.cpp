// mpi: the stack split by frames. A frame's median needs nothing from any
// other frame, so each rank filters its own frames with the serial rung's
// selection network and no message passes while computing: the
// embarrassingly parallel lesson. What it costs is the scatter and gather of
// the whole stack, and a stack of fewer frames than ranks leaves ranks idle.
#include <vector>

#include "ladder/mpi.hpp"
#include "solutions/median_filter/selection_network.hpp"

namespace ladder {
namespace {

class MpiMedianFilter final : public MpiRung {
 public:
  explicit MpiMedianFilter(const RungContext& context)
      : MpiRung(context), settings_(median_filter::settings_of(context.params)) {}

  ~MpiMedianFilter() override {
    if (frame_type_ != MPI_DATATYPE_NULL) MPI_Type_free(&frame_type_);
  }

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    long long shape[4] = {0, 0, 0, 0};  // frames, height, width, dtype
    if (rank() == 0) {
      const median_filter::Stack stack = median_filter::stack_of(inputs->at("image"));
      shape[0] = static_cast<long long>(stack.frames), shape[1] = static_cast<long long>(stack.height);
      shape[2] = static_cast<long long>(stack.width), shape[3] = static_cast<long long>(inputs->at("image").dtype());
      image_ = inputs->at("image").raw();
      output_ = outputs->at("output").raw();
    }
    LADDER_MPI(MPI_Bcast(shape, 4, MPI_LONG_LONG, 0, communicator()));
    stack_ = {static_cast<std::size_t>(shape[0]), static_cast<std::size_t>(shape[1]), static_cast<std::size_t>(shape[2])};
    dtype_ = static_cast<DType>(shape[3]);
    networks_ = &median_filter::networks_for(settings_.size);

    // Messages count whole frames (a stack's bytes can pass an int's range).
    const std::size_t frame_bytes = stack_.frame_pixels() * dtype_size(dtype_);
    if (frame_type_ != MPI_DATATYPE_NULL) MPI_Type_free(&frame_type_);
    LADDER_MPI(MPI_Type_contiguous(static_cast<int>(frame_bytes), MPI_BYTE, &frame_type_));
    LADDER_MPI(MPI_Type_commit(&frame_type_));
    parts_ = parts_of(static_cast<long long>(stack_.frames), ranks());
    frames_in_.resize(parts_.counts[rank()] * frame_bytes);
    frames_out_.resize(parts_.counts[rank()] * frame_bytes);
  }

  // Upload: each rank its frames.
  void scatter() override {
    LADDER_MPI(MPI_Scatterv(image_, parts_.counts.data(), parts_.offsets.data(), frame_type_, frames_in_.data(), parts_.counts[rank()],
                            frame_type_, 0, communicator()));
  }

  void compute_ranks() override {
    const median_filter::Stack mine{static_cast<std::size_t>(parts_.counts[rank()]), stack_.height, stack_.width};
    median_filter::with_pixel_type(dtype_, [&](auto tag) {
      using T = decltype(tag);
      const median_filter::SelectionNetworkFilter<T> filter(reinterpret_cast<const T*>(frames_in_.data()),
                                                            reinterpret_cast<T*>(frames_out_.data()), mine,
                                                            settings_, *networks_);
      auto scratch = filter.scratch();
      for (std::size_t f = 0; f < mine.frames; ++f)
        for (long y = 0; y < long(mine.height); ++y) filter.row(f, y, scratch);
    });
  }

  // Download: the filtered frames back to rank 0.
  void gather() override {
    LADDER_MPI(MPI_Gatherv(frames_out_.data(), parts_.counts[rank()], frame_type_, output_, parts_.counts.data(), parts_.offsets.data(),
                           frame_type_, 0, communicator()));
  }

 private:
  median_filter::Settings settings_;
  const median_filter::Networks* networks_ = nullptr;
  const void* image_ = nullptr;  // rank 0 only: the harness's arrays
  void* output_ = nullptr;
  median_filter::Stack stack_;
  DType dtype_ = DType::f32;
  MPI_Datatype frame_type_ = MPI_DATATYPE_NULL;
  Parts parts_;  // every rank's frames
  // This rank's frames, in and out, as bytes of whatever the pixel type is
  // (vector<std::byte> is aligned for any scalar type through operator new).
  std::vector<std::byte> frames_in_, frames_out_;
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, mpi, MpiMedianFilter);
}  // namespace ladder
