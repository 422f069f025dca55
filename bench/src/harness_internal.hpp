#pragma once
// What the harness's own files share and nothing outside them needs: the
// run's clock and when it last printed, the poisoning of outputs, and the
// table printed as the run goes. Not a public header: bench/src only.
#include <chrono>
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "ladder/array.hpp"

namespace ladder {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// When the run last printed a line: a figure that keeps it silent for
// TimingPolicy::progress_every seconds prints one (a slow naive rung takes minutes).
extern Clock::time_point last_output;  // timing.cpp

// Outputs start as garbage, not zeros: a rung that leaves part of an output
// unwritten, or adds to what is there (a histogram that never clears its
// counts), gets a wrong answer instead of the zeros that a fresh allocation
// happens to hold. Poisoned before prepare(), which may write parts that
// never change.
void poison(Arrays& outputs);  // run_once.cpp

// The width of the rung column of the table printed as the run goes: the
// longest rung name (openmp_target_quads) and a space.
constexpr int kRungColumn = 31;  // python_numba_cuda_guvectorize and a space

// The table printed as the run goes (run_table.cpp).
void print_table_header(std::ostream& out);
void print_row(std::ostream& out, const nlohmann::json& row);

}  // namespace ladder
