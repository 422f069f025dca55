#!/usr/bin/env bash
# The MPI rungs on 1, 2 and 3 ranks (an odd count, so that the parts differ
# in size): `ladder check` passes them against the reference, `ladder run`
# times them and names the ranks, and a bad rank count is refused. A sweep
# over ranks (strong and weak) writes one results file that the schema
# accepts and the report draws as a scaling chart and table.
#
#   test_mpi.sh LADDER [PYTHON]   (PYTHON: with jsonschema, for the schema check)
set -uo pipefail
ladder=$1
python=${2:-python3}
schema=$(dirname "$0")/../reports/results.schema.json
command -v mpirun >/dev/null || { echo "skipped: mpirun is not installed (Debian: openmpi-bin)"; exit 77; }
# Open MPI as root (CI, containers) needs its consent; NVLink multicast stays off wherever NCCL may run.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
source "$(dirname "$0")/shell_test.sh"  # $work, $failures, expect

for exercise in histogram kappa_sigma convolution median_filter; do
  for ranks in 1 2 3; do
    timeout 120 "$ladder" check "$exercise" --variants mpi --ranks "$ranks" >"$work/check-$ranks.txt" 2>&1
    status=$?
    expect "$exercise mpi on $ranks rank(s): check passes (exit $status)" "^  mpi +pass" "$work/check-$ranks.txt"
    [ $status -eq 0 ] || { echo "FAILED: exit $status"; failures=$((failures + 1)); }
  done
  timeout 120 "$ladder" run "$exercise" --size tiny --variants serial,mpi --ranks 2 --min-time 0.01 \
    --repetitions 3 --out "$work/run.json" >"$work/run.txt" 2>&1
  status=$?
  [ $status -eq 0 ] || { echo "FAILED: ladder run --ranks 2 exited $status"; cat "$work/run.txt"; failures=$((failures + 1)); }
  # The ranks' output passes through the supervisor, progress lines ("timing...\r") included; mpirun's does not.
  expect "$exercise: ladder run --ranks 2 prints the mpi rung's row" "^  mpi +(timing\.\.\..*)?ok " "$work/run.txt"
  expect "$exercise: ladder run --ranks 2 prints its probe of the network" "^  mpi: exchange .*; allreduce .*; reduce " \
    "$work/run.txt"
  if python3 - "$work/run.json" "$exercise" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
rows = {row["rung"]: row for entry in results["results"] for row in entry["rungs"]}
row = rows["mpi"]
assert row["status"] == "ok", row
assert row["timings"]["compute"]["median_s"] > 0, row
assert row["device"].startswith("2 MPI ranks"), row["device"]
# What compute() sends, as the rung says, and nothing for a rung that is not distributed.
patterns = {"histogram": ["reduce"], "convolution": ["exchange"], "median_filter": [],
            "kappa_sigma": ["reduce", "allreduce", "allreduce", "allreduce"]}[sys.argv[2]]
assert [m["pattern"] for m in row["communication"]] == patterns, row["communication"]
assert all(m["bytes"] > 0 and m["rounds"] >= 1 for m in row["communication"]), row["communication"]
assert "communication" not in rows["serial"], rows["serial"]
# The probe of the network: MPI between the 2 ranks on one machine, every time positive, the sizes by factors
# of 8 from 4 B, and where it reached 8 MiB that message far slower than the 4-byte one. Not that it reaches
# 8 MiB (sizes stop where one message takes 0.1 s, and on a busy machine a scheduler's pause can be that),
# nor that each size is slower than the last (16 ms at 128 KiB, seen beside a build).
probes = results["context"]["communication"]
assert [(p["backend"], p["ranks"], p["machines"], p["machine_of_rank"]) for p in probes] == [("mpi", 2, 1, [0, 0])], probes
for operation in ("exchange", "allreduce", "reduce"):
    points = probes[0][operation]
    sizes, times = [b for b, _ in points], [t for _, t in points]
    assert len(sizes) >= 3 and sizes == [4 * 8 ** k for k in range(len(sizes))], (operation, points)
    assert all(t > 0 for t in times), (operation, points)
    # Against the fastest smaller message: the first alone can be a pause (4 ms at 4 B, seen beside a build).
    assert sizes[-1] < 8 << 20 or times[-1] > 4 * min(times[:-1]), (operation, points)
PY
  then echo "ok: $exercise mpi is timed on 2 ranks, its row says so and what it sends, and the run probed the network"
  else echo "FAILED: the run's mpi row or its probe of the network"; failures=$((failures + 1)); fi
done

# A rank that dies mid-run brings the job down: the run ends with an error
# instead of waiting for it for ever.
timeout 120 "$ladder" run histogram --size workshop --variants mpi --ranks 2 --min-time 30 --time-budget 60 \
  --out "$work/killed.json" >"$work/killed.txt" 2>&1 &
job=$!
follower=""
for _ in $(seq 100); do  # the rank-1 process of this job (by its --out: not another test's), by the rank Open MPI gives it
  for pid in $(pgrep -f -- "--out $work/killed.json" || true); do
    if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1"; then follower=$pid; fi
  done
  [ -n "$follower" ] && break
  sleep 0.1
done
sleep 2  # into its timed repetitions
[ -n "$follower" ] && kill -9 "$follower"
wait $job
status=$?
if [ -n "$follower" ] && [ $status -ne 0 ] && [ $status -ne 124 ]; then
  echo "ok: killing rank 1 ends the run (exit $status), no hang"
else
  echo "FAILED: killing rank 1 (pid ${follower:-not found}): exit $status (124: it hung until the timeout)"
  cat "$work/killed.txt"; failures=$((failures + 1))
fi

# A bad rank count: one message, exit 2.
"$ladder" check histogram --variants mpi --ranks 0 >"$work/bad.txt" 2>&1
status=$?
expect "--ranks 0 is refused with exit 2 (got $status)" "give a number of MPI ranks" "$work/bad.txt"
[ $status -eq 2 ] || failures=$((failures + 1))

# --sweep ranks=1,2 without mpirun typed: one results file, an entry per rank
# count, strong then weak (--weak: the image's rows grow with the ranks).
for kind in strong weak; do
  timeout 120 "$ladder" run convolution --size tiny --variants serial,mpi --sweep ranks=1,2 \
    $([ $kind = weak ] && echo --weak) --min-time 0.01 --repetitions 3 --host-bandwidth 10 \
    --out "$work/sweep-$kind.json" >"$work/sweep-$kind.txt" 2>&1
  status=$?
  [ $status -eq 0 ] || { echo "FAILED: --sweep ranks=1,2 ($kind) exited $status"; cat "$work/sweep-$kind.txt"; failures=$((failures + 1)); }
done
expect "--sweep ranks prints the scaling of the mpi rung" "^  convolution +mpi +2 ranks" "$work/sweep-strong.txt"
# --weak grows what the exercise's ranks split, as the problem names it: refused, exit 2, where there is
# nothing to split (median_filter's single image) or no distributed rung (vector_add).
for refused in "median_filter --param frames=0|frames=0 is one image" "vector_add|has no distributed rung"; do
  # shellcheck disable=SC2086  # the exercise and its options, split on purpose
  timeout 60 "$ladder" run ${refused%%|*} --size tiny --sweep ranks=1,2 --weak --out "$work/refused.json" \
    >"$work/weak-refused.txt" 2>&1
  status=$?
  expect "--weak on ${refused%%|*} is refused (exit $status)" "${refused#*|}" "$work/weak-refused.txt"
  [ $status -eq 2 ] || { echo "FAILED: exit $status, not 2"; failures=$((failures + 1)); }
done
if timeout 30 "$python" - "$work/sweep-strong.json" "$work/sweep-weak.json" "$schema" "$work/both.json" <<'PY'
import json, sys
strong, weak, schema = (json.load(open(path)) for path in sys.argv[1:4])
for results, kind in ((strong, "strong"), (weak, "weak")):
    entries = results["results"]
    assert [(e["ranks"], e["scaling"]) for e in entries] == [(1, kind), (2, kind)], entries
    assert all(r["status"] == "ok" for e in entries for r in e["rungs"]), entries
    assert "--sweep ranks=1,2" in results["context"]["command_line"], results["context"]["command_line"]
    mpi = next(r for r in entries[1]["rungs"] if r["rung"] == "mpi")
    assert mpi["device"].startswith("2 MPI ranks"), mpi["device"]
    # The 2-rank launch's probe of the network, kept in the merged context (the 1-rank launch has none).
    assert [(p["backend"], p["ranks"]) for p in results["context"]["communication"]] == [("mpi", 2)], kind
assert strong["results"][0]["parameters"] == strong["results"][1]["parameters"]
assert [e["parameters"]["height"] for e in weak["results"]] == ["61", "122"], weak["results"]
assert all(e["scaled_parameter"] == "height" for e in weak["results"])
both = dict(strong, results=strong["results"] + weak["results"])
json.dump(both, open(sys.argv[4], "w"))
try:
    import jsonschema
except ImportError:
    print("note: jsonschema is not installed for " + sys.executable + ": the schema check is skipped")
    sys.exit(0)
validator = jsonschema.Draft202012Validator(schema)
for results in (strong, weak):
    errors = ["/".join(map(str, e.path)) + ": " + e.message for e in validator.iter_errors(results)]
    assert not errors, errors
broken = json.loads(json.dumps(weak))
del broken["results"][1]["scaled_parameter"]
assert not validator.is_valid(broken), "a weak entry must name the parameter it grew"
broken = json.loads(json.dumps(strong))
broken["context"]["communication"][0]["exchange"][0][1] = 0
assert not validator.is_valid(broken), "a probe's time must be positive"
PY
then echo "ok: the sweep over ranks merges one entry per count, strong and weak, and validates"
else echo "FAILED: the merged results of the sweep over ranks"; failures=$((failures + 1)); fi

# The report: a scaling chart with a strong and a weak panel, and the tables.
timeout 60 "$ladder" report "$work/both.json" --out "$work/report" >"$work/report.txt" 2>&1 ||
  { echo "FAILED: ladder report of the sweep"; cat "$work/report.txt"; failures=$((failures + 1)); }
[ -s "$work/report/scaling-convolution-tiny-ranks.png" ] && [ -s "$work/report/scaling-convolution-tiny-ranks.svg" ] &&
  echo "ok: the report draws the scaling chart" ||
  { echo "FAILED: no scaling-convolution-tiny-ranks.png/svg"; ls "$work/report"; failures=$((failures + 1)); }
expect "the report's strong scaling table" "^\| mpi \| 2 \| [0-9.]+ [mun]?s \| [0-9.e+-]+× \| [0-9.e+-]+ % \|" "$work/report/tables.md"
expect "the report's weak scaling table" "^\| mpi \| 2 \| height=122 \| " "$work/report/tables.md"
expect "the chart has both panels" "weak scaling: height" "$work/report/scaling-convolution-tiny-ranks.svg"
# The model, from the sweep's probe: predicted efficiency at 8, 64 and 512 ranks, drawn and labelled as a
# prediction, and checked against the largest count measured. Past one node (48 ranks by the default
# machine file) its table names the nodes, and the link between them.
expect "the report's table of predictions" "^\| mpi \| 1 × exchange of [0-9.]+ KiB \| 2 ranks: [0-9.e+-]+ % \([0-9.e+-]+ %\) \| 8 ranks: [0-9.e+-]+ % \| 64 ranks \(2 nodes of 48\): [0-9.e+-]+ % \| 512 ranks \(11 nodes of 48\): [0-9.e+-]+ % \|" "$work/report/tables.md"
expect "the table's header says predicted" "predicted at 512" "$work/report/tables.md"
expect "the table names the link between nodes" "^- mpi between nodes \(4-gpus-4x200g-infiniband.json, not measured in this run" "$work/report/tables.md"
expect "the chart draws the prediction" "mpi, compute-only: model \(prediction, 48 ranks a node\)" "$work/report/scaling-convolution-tiny-ranks.svg"
expect "the report prints the model's check at 2 ranks" "^model check: convolution \(tiny\) mpi, strong scaling on 2 ranks: predicted efficiency" "$work/report.txt"

# ladder compare tells the entries apart by their ranks.
timeout 30 "$ladder" compare "$work/sweep-strong.json" "$work/sweep-strong.json" >"$work/compare.txt" 2>&1 ||
  { echo "FAILED: ladder compare of the sweep with itself"; failures=$((failures + 1)); }
expect "ladder compare matches the rows by their ranks" "^convolution / tiny / 2 ranks / mpi .* same" "$work/compare.txt"

# A bad count in the sweep: one message, exit 2, no results file.
timeout 30 "$ladder" run convolution --size tiny --sweep ranks=0 --out "$work/zero.json" >"$work/zero.txt" 2>&1
status=$?
expect "--sweep ranks=0 is refused with exit 2 (got $status)" "not a number of MPI ranks from 1 to 1024" "$work/zero.txt"
[ $status -eq 2 ] && [ ! -e "$work/zero.json" ] || failures=$((failures + 1))

exit $(( failures == 0 ? 0 : 1 ))
