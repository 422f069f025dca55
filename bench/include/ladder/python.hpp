#pragma once
// Python rungs: a rung written in Python (solutions/<ex>/python*.py, or the
// participant's exercises/<ex>/python*.py), run in a worker process of its
// own (bench/python/ladder_worker.py) and driven through the four steps of
// a C++ rung (docs/python-rungs.md). Never an interpreter inside ladder:
// NumPy, Numba and CuPy cannot be set up twice in one process, and one
// participant's crash must not cost the other rungs their verdicts.
#include <string>
#include <vector>

#include "ladder/registry.hpp"

namespace ladder {

// The virtual environment the workers run in: $LADDER_VENV (the user's
// own), else the one scripts/bootstrap.sh makes, .venv in the source folder.
std::string python_venv();
// Its python3; python3 on the PATH where it has none.
std::string python_interpreter();
// --hang-limit: seconds a worker's step may take before it counts as hung.
void set_python_hang_limit(double seconds);

// Every <folder>/<exercise>/python*.py as a rung of the track, when ladder
// starts (bench/CMakeLists.txt names each track's folder). For the exercises
// track, $LADDER_EXERCISES_PYTHON names another folder of the same layout
// in its place: a participant's copy elsewhere, or the tests' planted mistakes.
void register_python_track(const std::string& track, const std::string& folder);
// One Python rung's file.
void register_python_rung(const std::string& track, const std::string& exercise, const std::string& rung,
                          const std::string& path);
// The file of a registered Python rung; empty where there is none.
std::string python_rung_file(const std::string& exercise, const std::string& rung, const std::string& track);

// Can this Python rung run here: the interpreter, the modules its file's
// REQUIRES names (a missing one names its package and the command that
// installs it), and a device where its DEVICE says "cuda" or "opencl".
Availability python_rung_availability(const std::string& exercise, const std::string& rung, const std::string& track,
                                      const RunOptions& options);

// Where a Python rung stands among the others on its exercise's ladder, the
// courses' order: the interpreter, NumPy, Numba, Cython, then the device
// rungs; a name not listed comes after them, alphabetically.
std::size_t python_ladder_position(const std::string& rung);

}  // namespace ladder
