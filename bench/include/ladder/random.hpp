#pragma once
// Counter-based random numbers: value i of stream s under seed k is a pure
// function of (k, s, i), so inputs are identical on every backend, thread
// count and machine. The integer-to-float mapping is our own (std::
// distributions differ between standard libraries). In NumPy:
//
//   def splitmix64(z):            # z: np.uint64 array; wraps modulo 2**64
//       z = z + 0x9E3779B97F4A7C15
//       z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
//       z = (z ^ (z >> 27)) * 0x94D049BB133111EB
//       return z ^ (z >> 31)
//   key = splitmix64(splitmix64(seed) ^ stream)
//   bits(i) = splitmix64(key + i * 0x9E3779B97F4A7C15)
//   uniform_float32(i) = (bits(i) >> 40) * 2**-24      # [0, 1), 24 bits
//   uniform_float64(i) = (bits(i) >> 11) * 2**-53      # [0, 1), 53 bits
#include <cstdint>

namespace ladder {

constexpr std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class CounterRng {
 public:
  CounterRng(std::uint64_t seed, std::uint64_t stream)
      : key_(splitmix64(splitmix64(seed) ^ stream)) {}

  std::uint64_t bits(std::uint64_t i) const { return splitmix64(key_ + i * 0x9E3779B97F4A7C15ull); }
  float uniform_float32(std::uint64_t i) const { return static_cast<float>(bits(i) >> 40) * 0x1.0p-24f; }
  double uniform_float64(std::uint64_t i) const { return static_cast<double>(bits(i) >> 11) * 0x1.0p-53; }
  // Integer in [0, bound) by the multiply-shift mapping (bias below 2^-32 for small bounds).
  std::uint32_t below(std::uint64_t i, std::uint32_t bound) const {
    return static_cast<std::uint32_t>(((bits(i) >> 32) * bound) >> 32);
  }

 private:
  std::uint64_t key_;
};

}  // namespace ladder
