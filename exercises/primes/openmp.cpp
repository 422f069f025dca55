// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// openmp: your segmented sieve with the segments shared among the cores.
// Segments are independent once the base primes are known: each thread
// sieves its own, in its own buffer, and writes its own part of the flags.
#include <cstdint>
#include <span>

#include "ladder/error.hpp"
#include "ladder/registry.hpp"
// ==== end

namespace ladder {
namespace {

// ==== exercise only
class OpenMpPrimes final : public OpenMpRung {
  // ==== end
 public:
  // ==== exercise only
  explicit OpenMpPrimes(const RungContext&) {}

  void prepare(const Arrays&, Arrays& outputs) override { flags_ = outputs.at("flags").view<std::uint8_t>(); }
  // ==== end

  void compute() override {
    // ==== yours
    // TODO: your serial sieve with the loop over segments in parallel (task
    // sheet, step 2). What did a segment need from the one before it, and
    // how does a thread get that when its first segment is not segment 0?
    // (To share code with serial.cpp, put it in a header of your own in
    // this folder and include it from both.)
    LADDER_TODO("openmp: share the segments in compute() of exercises/primes/openmp.cpp, then delete this line");
    // ==== end
  }

  // ==== exercise only
 private:
  std::span<std::uint8_t> flags_;
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(primes, openmp, OpenMpPrimes);
}  // namespace ladder
