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

// A rung wrote past the end of an output the harness owns (its guard
// zone, Array::guard_overrun): the message names the output and how far.
class OutOfBounds : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The rung's own code failed where it runs apart from ladder (a Python
// rung's exception, naming its file and line; its worker that died or
// hung): that rung's FAIL on that case, never the whole command's error.
class RungError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A participant's rung (exercises/) whose core is still a TODO. Reported
// as "not implemented", never as passed or failed.
class NotImplemented : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ladder

// Marks the core a participant is to write; delete the line once it is written.
#define LADDER_TODO(what) throw ::ladder::NotImplemented(what)
