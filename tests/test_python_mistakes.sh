#!/usr/bin/env bash
# A participant's Python mistake is a verdict (issue 70), as the same
# mistake is in a C++ rung: a participant's folder of Python rungs
# (LADDER_EXERCISES_PYTHON, the exercises track's Python files) with
# polygon_mask's solutions in it, each with one mistake planted, checked by
# `ladder check --track exercises`. Each gets its own verdict, and the
# others are still checked: a Python rung never takes `ladder` down.
#
#   test_python_mistakes.sh SOURCE_DIR LADDER
set -uo pipefail
source_dir=$1 ladder=$2
source "$(dirname "$0")/shell_test.sh"  # $work, $failures, expect
folder=$work/participant/polygon_mask
mkdir -p "$folder"
solution=$source_dir/solutions/polygon_mask

# plant NAME FROM TO [FILE]: a copy of FILE (the Numba rung by default) as
# python_NAME.py with the text FROM replaced by TO, which must be there.
plant() {
  local from_file=${4:-$solution/python_numba.py}
  python3 - "$from_file" "$folder/python_$1.py" "$2" "$3" <<'PY' || { echo "FAILED: cannot plant $1"; exit 1; }
import sys
source, target, old, new = sys.argv[1:5]
text = open(source).read()
if old not in text:
    sys.exit(f"{source} no longer holds {old!r}")
open(target, "w").write(text.replace(old, new, 1))
PY
}
cp "$solution/python_numba.py" "$folder/python_numba.py"  # solved, and imported by a planted parallel rung
# An off-by-one bound: the last row never written.
plant off_by_one "for y in range(mask.shape[0]):" "for y in range(mask.shape[0] - 1):"
# A loop to <= in compiled code (Numba checks no bounds): the last row's
# tail written one byte past the end of the mask.
plant past_the_end "    row[x:] = 0" "    for tail in range(x, width + 1):
        row[tail] = 0"
# An exception on one case only (a single-row canvas).
plant raises_on_one_case "    def compute(self):" "    def compute(self):
        if self.mask.shape[0] == 1:
            raise ValueError('a canvas of one row')"
# A worker that hangs: an endless loop in compute (of the NumPy rung: no JIT
# to wait for, so that the check can be run with a short --hang-limit).
plant hangs "    def compute(self):" "    def compute(self):
        while True:
            pass" "$solution/python_numpy.py"
# A worker that dies on a bad address, as compiled code out of bounds does.
plant dies "    def compute(self):" "    def compute(self):
        import ctypes
        ctypes.string_at(0)"
# A module that is not installed: skipped, naming it.
plant needs_a_module 'REQUIRES = ("numba",)' 'REQUIRES = ("numba", "no_such_module_here")'
# The skeleton's state: not implemented.
plant todo "    def compute(self):" "    def compute(self):
        raise NotImplementedError('compute: the scanline, yours to write')"
# Printing from the rung, from Python and from compiled code: no harm to the protocol.
plant prints "    def compute(self):" "    def compute(self):
        print('hello from the rung')"
out=$work/check.txt
LADDER_EXERCISES_PYTHON=$work/participant timeout 600 "$ladder" check polygon_mask --track exercises --size tiny \
  --variants python_numba,python_off_by_one,python_past_the_end,python_raises_on_one_case,python_dies,python_needs_a_module,python_todo,python_prints >"$out" 2>&1
status=$?
cat "$out"
LADDER_EXERCISES_PYTHON=$work/participant timeout 120 "$ladder" check polygon_mask --track exercises --size tiny \
  --hang-limit 3 --variants python_hangs >"$work/hang.txt" 2>&1
cat "$work/hang.txt"
[ $status -eq 1 ] && echo "ok: the check's exit status is 1 (a rung failed)" ||
  { echo "FAILED: the check's exit status is $status, not 1"; failures=$((failures + 1)); }
expect "the solved rung passes" "^  python_numba +pass \(10 inputs" "$out"
expect "an off-by-one bound fails, naming the case and the first wrong element" \
  "^  python_off_by_one +FAIL case .*seed=[0-9]+.*: .*(index|element|pixel|row)" "$out"
expect "a write past the end of the output fails, saying how far" \
  "^  python_past_the_end +FAIL case .*wrote past the end of output 'mask' .*: up to 1 bytes past its end" "$out"
expect "a raise on one case fails on that case, with the exception and the participant's file and line" \
  "^  python_raises_on_one_case +FAIL case height=1 .*ValueError: a canvas of one row at .*python_raises_on_one_case.py:[0-9]+ in compute \(the compute step\)" "$out"
expect "an endless loop is a hang, naming the step" \
  "^  python_hangs +FAIL case .*hang: the Python worker's compute step gave no answer within 3 s" "$work/hang.txt"
expect "a worker that dies is a FAIL naming the signal" \
  "^  python_dies +FAIL case .*the Python worker was killed by signal 11 \(Segmentation fault\) during compute: " "$out"
expect "a missing module is skipped, naming it and how to install it" \
  "^  python_needs_a_module +skipped \(needs the Python module no_such_module_here .*bootstrap.sh" "$out"
expect "a skeleton's TODO is not implemented" "^  python_todo +not implemented \(compute: the scanline, yours to write\)" "$out"
expect "a rung that prints still passes" "^  python_prints +pass" "$out"

# The other Python steps that run on this machine, each with the mistake of
# its shape: the ufunc's result not written into the harness's output
# (vector_add), and a launch whose tiles miss the frame's last rows
# (spot_finding, on PoCL). The GPU steps' mistakes are planted on the GPU
# machine (scripts/gpu_python_rungs.sh).
plant_in() {  # plant_in EXERCISE SOLUTION_FILE NAME FROM TO
  mkdir -p "$work/participant/$1"
  python3 - "$source_dir/solutions/$1/$2" "$work/participant/$1/python_$3.py" "$4" "$5" <<'PY' || { echo "FAILED: cannot plant $3"; exit 1; }
import sys
source, target, old, new = sys.argv[1:5]
text = open(source).read()
if old not in text:
    sys.exit(f"{source} no longer holds {old!r}")
open(target, "w").write(text.replace(old, new, 1))
PY
}
plant_in vector_add python_numba_vectorize.py not_into_the_output "add(self.a, self.b, out=self.c)" "self.c = add(self.a, self.b)"
plant_in spot_finding python_pyopencl.py last_tiles_missed "-(-height // TILE_HEIGHT) * GROUP_ROWS" "(height // TILE_HEIGHT) * GROUP_ROWS"
for step in "vector_add not_into_the_output" "spot_finding last_tiles_missed"; do
  read -r exercise rung <<<"$step"
  LADDER_EXERCISES_PYTHON=$work/participant timeout 300 "$ladder" check "$exercise" --track exercises --size tiny \
    --variants "python_$rung" >"$work/$rung.txt" 2>&1
  cat "$work/$rung.txt"
  expect "$exercise: python_$rung fails on a case, naming it" "^  python_$rung +FAIL case .*seed=[0-9]+" "$work/$rung.txt"
done

exit $((failures == 0 ? 0 : 1))
