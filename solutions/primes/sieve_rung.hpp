#pragma once
#include <cstdint>
#include <span>

#include "ladder/registry.hpp"
#include "solutions/primes/segmented_sieve.hpp"

namespace ladder::primes_sieve {

// What the serial and openmp rungs share: the flags they write and the
// presieved patterns, set up in prepare() (untimed). Each rung is its
// compute(): the segments one after the other, or shared out among threads.
template <class Backend>  // HostRung or OpenMpRung
class SieveRung : public Backend {
 public:
  explicit SieveRung(const RungContext&) {}

  void prepare(const Arrays&, Arrays& outputs) override {
    flags_ = outputs.at("flags").view<std::uint8_t>();
    patterns_ = presieve_patterns();
  }

 protected:
  std::span<std::uint8_t> flags_;
  Patterns patterns_;
};

}  // namespace ladder::primes_sieve
