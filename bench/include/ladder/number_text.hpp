#pragma once
// A number as a message quotes it: with the digits that read back to the
// same value (17 for a double; kFloatDigits for a float32), and no more.
#include <cstdio>
#include <string>

namespace ladder {

constexpr int kDoubleDigits = 17;
constexpr int kFloatDigits = 9;

inline std::string number_text(double value, int digits = kDoubleDigits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

}  // namespace ladder
