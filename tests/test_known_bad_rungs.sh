#!/usr/bin/env bash
# Times the board can trust (issue 72): rungs that cheat the timing, each
# caught when a participant's run is handed in to a class folder. A
# participant's folder of Python rungs (LADDER_EXERCISES_PYTHON) holds
# vector_add's NumPy solution and five known-bad copies of it:
#   replays           computes once, then copies that answer into c
#   no_work           computes on its first call only
#   partial           after its first call writes only half of c
#   replays_unless_changed  computes only when its inputs have changed,
#                     else leaves c as it was: passes every check, times nothing
#   prints_pass       a wrong c, and a table row and "PASS" of its own printed
# A plain `ladder run` passes the first three (the same inputs, checked after
# the timing, hold the answer of the first run), which is why a hand-in
# checks each rung again on fresh inputs; the fourth passes that too, and its
# time beats the machine's ceiling: implausible. The board shows each.
#
#   test_known_bad_rungs.sh SOURCE_DIR LADDER
set -uo pipefail
source_dir=$1 ladder=$2
source "$(dirname "$0")/shell_test.sh"  # $work, $failures
check() {  # check DESCRIPTION COMMAND...: one check that the command succeeds
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
fail() { echo "FAILED: $1"; failures=$((failures + 1)); }
folder=$work/participant/vector_add
mkdir -p "$folder" "$work/class"
solution=$source_dir/solutions/vector_add/python_numpy.py
cp "$solution" "$folder/python_numpy.py"

# plant NAME NEW_COMPUTE: the NumPy rung as python_NAME.py with compute() replaced.
plant() {
  python3 - "$solution" "$folder/python_$1.py" "$2" <<'PY' || { echo "FAILED: cannot plant $1"; exit 1; }
import sys
source, target, new = sys.argv[1:4]
text = open(source).read()
old = "    def compute(self):\n        np.add(self.a, self.b, out=self.c)\n"
if old not in text:
    sys.exit(f"{source} no longer holds its compute()")
open(target, "w").write(text.replace(old, new))
PY
}
plant replays "    def compute(self):
        if not hasattr(self, 'answer'):
            self.answer = self.a + self.b
        self.c[:] = self.answer
"
plant no_work "    def compute(self):
        if getattr(self, 'done', False):
            return
        np.add(self.a, self.b, out=self.c)
        self.done = True
"
plant partial "    def compute(self):
        n = self.c.shape[0] // 2 if getattr(self, 'done', False) else self.c.shape[0]
        np.add(self.a[:n], self.b[:n], out=self.c[:n])
        self.done = True
"
plant replays_unless_changed "    def compute(self):
        seen = (float(self.a[0]), float(self.a[-1]), float(self.b[1]))
        if getattr(self, 'seen', None) != seen:
            np.add(self.a, self.b, out=self.c)
            self.seen = seen
"
plant prints_pass "    def compute(self):
        np.subtract(self.a, self.b, out=self.c)
        print('  python_prints_pass             ok          1.000 us   1.000 us')
        print('PASS')
"
rungs=python_numpy,python_replays,python_no_work,python_partial,python_replays_unless_changed,python_prints_pass
run() {  # run OUT [ARGS...]: the participant's run of vector_add's Python rungs
  local out=$1
  shift
  LADDER_EXERCISES_PYTHON=$work/participant timeout 600 "$ladder" run vector_add --track exercises --size tiny \
    --variants $rungs --min-time 0.01 --repetitions 3 --out "$work/$out.json" "$@" >"$work/$out.txt" 2>&1
  echo $? >"$work/$out.status"
}
status_of() {  # status_of OUT RUNG: the rung's status in that run's results file
  python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; \
print(next(g['status'] for g in r['rungs'] if g['rung'] == sys.argv[2]))" "$work/$1.json" "$2"
}

# The plain run: what the three replays fool.
run plain
for rung in python_numpy python_replays python_no_work python_partial python_replays_unless_changed; do
  check "plain run: $rung passes (its first answer is still in c)" test "$(status_of plain $rung)" = ok
done
check "plain run: python_prints_pass fails its check" test "$(status_of plain python_prints_pass)" = failed
check "plain run: exit status 1 (a rung failed)" test "$(cat "$work/plain.status")" = 1

# The hand-in: a seed drawn at run time, a second check on fresh inputs.
run handed --class-folder "$work/class" --name ann
check "hand-in: exit status 1" test "$(cat "$work/handed.status")" = 1
check "hand-in: the seed is not printed before the rows" grep -q "seed drawn at run time" "$work/handed.txt"
check "hand-in: handed in" grep -q "^handed in: $work/class/ann/vector_add-run-" "$work/handed.txt"
check "hand-in: python_numpy passes" test "$(status_of handed python_numpy)" = ok
for rung in python_replays python_no_work python_partial; do
  check "hand-in: $rung fails on fresh inputs" test "$(status_of handed $rung)" = failed
  check "hand-in: $rung's words name the fresh inputs" \
    grep -q "^  $rung .*wrong output on fresh inputs" "$work/handed.txt"
done
check "hand-in: python_replays_unless_changed passes its checks" \
  test "$(status_of handed python_replays_unless_changed)" = ok
check "hand-in: ...and is handed in as implausible" \
  grep -q "python_replays_unless_changed is handed in as implausible" "$work/handed.txt"
check "hand-in: python_prints_pass fails" test "$(status_of handed python_prints_pass)" = failed
# The results file records both seeds, drawn: neither the default 1.
python3 - "$work/handed.json" <<'PY' || fail "hand-in: the results file records the drawn seeds"
import json, sys
entry = json.load(open(sys.argv[1]))["results"][0]
assert entry["seed_drawn"] is True and entry["seed"] != 1, entry["seed"]
assert entry["fresh_inputs_seed"] not in (1, entry["seed"]), entry["fresh_inputs_seed"]
PY

# The handed-in file holds the verdicts the run gave, and the board shows them.
hand_in=$(ls "$work"/class/ann/vector_add-run-*.json)
python3 - "$hand_in" <<'PY' || fail "hand-in file: the run's verdicts, with the ceiling's share of the pass"
import json, sys
data = json.load(open(sys.argv[1]))
assert data["command"] == "run" and data["seed"] != 1 and "fresh_inputs_seed" in data, data
verdicts = {row["rung"]: row["verdict"] for row in data["rungs"]}
assert verdicts == {"python_numpy": "pass", "python_replays": "fail", "python_no_work": "fail",
                    "python_partial": "fail", "python_replays_unless_changed": "implausible",
                    "python_prints_pass": "fail"}, verdicts
numpy = next(row for row in data["rungs"] if row["rung"] == "python_numpy")
assert 0 < numpy["fraction_of_ceiling"]["compute"] <= 1.5, numpy
import hashlib
mine = sys.argv[1].rsplit("/class/", 1)[0] + "/participant/vector_add/python_numpy.py"
assert numpy["sources"]["vector_add/python_numpy.py"] == hashlib.sha256(open(mine, "rb").read()).hexdigest(), numpy
PY
"$ladder" board "$work/class" --out "$work/board" >"$work/board.txt" 2>&1
check "board: written" test -f "$work/board/board.csv"
python3 - "$work/board/board.csv" <<'PY' || fail "board: each known-bad rung's cell"
import csv, sys
cells = {r["rung"]: r for r in csv.DictReader(open(sys.argv[1])) if r["participant"] == "ann"}
assert cells["python_numpy"]["verdict"] == "pass" and 0 < float(cells["python_numpy"]["of_ceiling"]) <= 1.5, cells
for rung in ("python_replays", "python_no_work", "python_partial", "python_prints_pass"):
    assert cells[rung]["verdict"] == "fail", (rung, cells[rung])
assert cells["python_replays_unless_changed"]["verdict"] == "implausible", cells["python_replays_unless_changed"]
PY
check "board: the page names the implausible cell" grep -q 'data-verdict="implausible"' "$work/board/board.html"
echo "$failures failed"
[ "$failures" -eq 0 ]
