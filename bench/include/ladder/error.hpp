#pragma once
// Errors are exceptions, caught once at the program's edge (ladder's main)
// and turned into one clear message and an exit status.
#include <stdexcept>
#include <string>

namespace ladder {

// The user asked for something we cannot do: bad file, dtype, shape,
// parameter, unknown exercise or rung. The message says what is accepted.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A CUDA or OpenCL call failed: the message names the call and the error.
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ladder
