#pragma once
// The radix select that the openmp and mpi rungs find the median with, in
// the pieces they share: the order-preserving keys, their three digits, and
// what a digit's histogram says about where a middle value lies. What
// differs between the rungs, how the histograms of the threads or the ranks
// are added up, stays in each rung.
//
// A float's bits, with the sign handled, sort like unsigned integers: the
// median's two middle values are found a digit at a time, each round
// counting the next digit of the values that share the digits found so far.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace ladder::kappa_sigma {

// The keys' digits, most significant first: bits 31-21, 20-10 and 9-0.
inline constexpr int kDigits = 3;
inline constexpr int kDigitShift[kDigits] = {21, 10, 0};
inline constexpr int kDigitBits[kDigits] = {11, 11, 10};
inline constexpr int kBuckets = 2048;  // a histogram of the widest digit

// Unsigned keys in the order of the floats: flip the sign bit of positives
// (they sort above every negative), flip every bit of negatives (a larger
// magnitude is a smaller float).
inline std::uint32_t float_key(float x) {
  const auto bits = std::bit_cast<std::uint32_t>(x);
  return bits ^ ((bits >> 31) ? 0xFFFFFFFFu : 0x80000000u);
}
inline float key_float(std::uint32_t key) {
  return std::bit_cast<float>(key ^ ((key >> 31) ? 0x80000000u : 0xFFFFFFFFu));
}

// x's bucket in the first digit's histogram, which the rungs count while
// they compact, before any digit is known.
inline std::size_t first_digit(float x) { return float_key(x) >> kDigitShift[0]; }

// A middle value being looked for: the key bits found so far, and its rank
// among the kept values that share them.
struct Target {
  std::uint32_t prefix = 0;
  std::size_t rank = 0;
};

// The two middle values of n: ranks (n-1)/2 and n/2, the same one when n is odd.
inline std::array<Target, 2> middle_values(std::size_t n) { return {Target{0, (n - 1) / 2}, Target{0, n / 2}}; }

// Digit `digit` of the target, read off the histogram of that digit among
// the values that share its prefix (`count(bucket)`, added up by the rung):
// the bucket its rank falls in, appended to its prefix, and its rank within
// that bucket.
template <class Count>
void select_digit(Target& target, int digit, Count count) {
  std::size_t below = 0, bucket = 0;
  for (;; ++bucket) {
    const std::size_t in_bucket = count(bucket);
    if (below + in_bucket > target.rank) break;
    below += in_bucket;
  }
  target.rank -= below;
  target.prefix = (target.prefix << kDigitBits[digit]) | static_cast<std::uint32_t>(bucket);
}

// Histograms digit `digit` of the `count` values at `in` whose higher
// digits are a target's prefix, afresh: into counts[0] for the first
// target, counts[1] for the second (left empty while both share their
// prefix: counts[0] then serves both). With `candidates`, the values
// counted are copied there too, packed, and their number is returned, so
// that the next digit reads those values only.
template <class Histograms>  // two std::arrays of kBuckets counts
std::size_t count_digit(int digit, const std::array<Target, 2>& targets, const float* in, std::size_t count,
                        Histograms& counts, float* candidates = nullptr) {
  const int shift = kDigitShift[digit], above = shift + kDigitBits[digit];
  const std::uint32_t digit_mask = (1u << kDigitBits[digit]) - 1;
  const bool shared = targets[0].prefix == targets[1].prefix;
  for (auto& histogram : counts) histogram.fill(0);
  std::size_t gathered = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t key = float_key(in[i]), prefix = key >> above, bucket = (key >> shift) & digit_mask;
    const bool first = prefix == targets[0].prefix, second = !shared && prefix == targets[1].prefix;
    if (first) ++counts[0][bucket];
    if (second) ++counts[1][bucket];
    if (candidates != nullptr && (first || second)) candidates[gathered++] = in[i];
  }
  return gathered;
}

// The median, once every digit of both middle values is found.
inline double median_of(const std::array<Target, 2>& targets) {
  return (double{key_float(targets[0].prefix)} + double{key_float(targets[1].prefix)}) / 2;
}

}  // namespace ladder::kappa_sigma
