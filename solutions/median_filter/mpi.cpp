// mpi: the stack split by frames. A frame's median needs nothing from any
// other frame, so each rank filters its own frames with the serial rung's
// selection network and no message passes while computing: the
// embarrassingly parallel lesson. What it costs is the scatter and gather of
// the whole stack, and a stack of fewer frames than ranks leaves ranks idle.
#include <optional>
#include <vector>

#include "ladder/mpi.hpp"
#include "solutions/median_filter/frames_of_ranks.hpp"
#include "solutions/median_filter/selection_network.hpp"

namespace ladder {
namespace {

class MpiMedianFilter final : public MpiRung {
 public:
  explicit MpiMedianFilter(const RungContext& context)
      : MpiRung(context), settings_(median_filter::settings_of(context.params)) {}
  // Its ranks send nothing while computing.
  std::optional<std::vector<Message>> communication() const override { return std::vector<Message>{}; }

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    frames_.emplace(inputs, outputs, rank(), ranks(), communicator());
    networks_ = &median_filter::networks_for(settings_.size);
    frames_in_.resize(frames_->my_bytes());
    frames_out_.resize(frames_->my_bytes());
  }

  // Upload: each rank its frames.
  void scatter() override { frames_->scatter(frames_in_.data()); }

  void compute_ranks() override {
    const median_filter::Stack mine = frames_->mine();
    median_filter::with_pixel_type(frames_->dtype, [&](auto tag) {
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
  void gather() override { frames_->gather(frames_out_.data()); }

 private:
  median_filter::Settings settings_;
  const median_filter::Networks* networks_ = nullptr;
  std::optional<median_filter::FramesOfRanks> frames_;
  // This rank's frames, in and out, as bytes of whatever the pixel type is
  // (vector<std::byte> is aligned for any scalar type through operator new).
  std::vector<std::byte> frames_in_, frames_out_;
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, mpi, MpiMedianFilter);
}  // namespace ladder
