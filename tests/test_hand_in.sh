#!/usr/bin/env bash
# A participant's check handed in to a class folder (issue 72, its first
# part): `ladder check --track exercises --class-folder DIR` writes
# DIR/<name>/<exercise>-check-....json with each rung's verdict, its time
# and the solution's where it passed, and the SHA-256 of its files; a
# second check is a second file; a folder that is not there is one
# message, the verdicts printed and the exit status as without it; a name
# that is not a plain word, or the solutions track, is refused (exit 2).
#
#   test_hand_in.sh SOURCE_DIR LADDER LADDER_PARTICIPANT_COPY
set -uo pipefail
source_dir=$1 ladder=$2 participant_copy=$3
source "$(dirname "$0")/shell_test.sh"  # $work, $failures, expect
class=$work/class
mkdir "$class"
field() {  # field FILE PYTHON_EXPRESSION_OF_result
  python3 -c "import json, sys; result = json.load(open(sys.argv[1])); print($2)" "$1"
}

# 1. The skeletons as they are: naive (given) passes, serial is a TODO.
"$ladder" check vector_add --track exercises --variants naive,serial --class-folder "$class" --name ada \
  >"$work/ada.out" 2>"$work/ada.err"
expect "a check that hands in exits as the check does (0)" "^0$" <(echo $?)
expect "it says where it handed in" "^handed in: $class/ada/vector_add-check-[0-9T]+Z-.*\.json$" "$work/ada.out"
file=$(ls "$class"/ada/vector_add-check-*.json 2>/dev/null | head -1)
if [ -z "$file" ]; then
  echo "FAILED: no handed-in file in $class/ada"; failures=$((failures + 1))
else
  field "$file" "result['context']['participant'], result['exercise'], result['track'], result['command']" >"$work/who"
  expect "the file says who, what and which track" "^ada vector_add exercises check$" "$work/who"
  field "$file" "' '.join(r['rung'] + '=' + r['verdict'] for r in result['rungs'])" >"$work/verdicts"
  expect "each rung's verdict" "^naive=pass serial=not_implemented$" "$work/verdicts"
  field "$file" "result['rungs'][1]['sources']['vector_add/serial.cpp']" >"$work/checksum"
  sha256sum "$source_dir/exercises/vector_add/serial.cpp" | cut -d' ' -f1 >"$work/sha256sum"
  expect "the rung's file's checksum is sha256sum's" "^$(cat "$work/sha256sum")$" "$work/checksum"
  field "$file" "result['context']['suite']['git_revision'] != '' and result['context']['machine']['cpu'] != ''" \
    >"$work/where"
  expect "where: the suite's revision and the CPU" "^True$" "$work/where"
fi

# 2. Again, and by the environment: files beside the first, none overwritten.
LADDER_CLASS_FOLDER=$class LADDER_PARTICIPANT=ada "$ladder" check vector_add --track exercises --variants naive \
  >/dev/null 2>&1
ls "$class"/ada/*.json 2>/dev/null | wc -l >"$work/count"
expect "a second check is a second file (LADDER_CLASS_FOLDER, LADDER_PARTICIPANT)" "^2$" "$work/count"
ls -A "$class"/ada | grep -c '\.partial$' >"$work/partial"
expect "no half-written file is left" "^0$" "$work/partial"

# 3. A rung that passes carries its time and the solution's (the participant
#    copy: the solution's serial.cpp in the exercise's slot).
"$participant_copy" check vector_add --track exercises --variants serial --class-folder "$class" --name cy \
  >"$work/cy.out" 2>&1
file=$(ls "$class"/cy/vector_add-check-*.json 2>/dev/null | head -1)
if [ -z "$file" ]; then
  echo "FAILED: no handed-in file for cy:"; cat "$work/cy.out"; failures=$((failures + 1))
else
  field "$file" "result['rungs'][0]['verdict'], result['rungs'][0]['compute_s'] > 0, result['rungs'][0]['solution_compute_s'] > 0" \
    >"$work/timed"
  expect "a passing rung's time and the solution's" "^pass True True$" "$work/timed"
fi

# 4. No class folder there: one message, the verdicts printed, the same exit status.
"$ladder" check vector_add --track exercises --variants naive,serial --class-folder "$work/absent" \
  >"$work/absent.out" 2>"$work/absent.err"
expect "without the folder the check still exits 0" "^0$" <(echo $?)
expect "one message says why nothing was handed in" "not handing in: no class folder $work/absent" "$work/absent.err"
expect "the verdicts are printed as always" "^  serial +not implemented" "$work/absent.out"
[ -e "$work/absent" ] && { echo "FAILED: the missing class folder was made"; failures=$((failures + 1)); }

# 5. Refused before any work (exit 2): a name that could be a path, the solutions track.
"$ladder" check vector_add --track exercises --class-folder "$class" --name ../eve >/dev/null 2>"$work/name.err"
expect "a name that is not a plain word exits 2" "^2$" <(echo $?)
expect "and says what a name may be" "participant name '../eve': letters, digits" "$work/name.err"
"$ladder" check vector_add --class-folder "$class" >/dev/null 2>"$work/track.err"
expect "the solutions track is not handed in (exit 2)" "^2$" <(echo $?)
expect "and says to add --track exercises" "add --track exercises" "$work/track.err"

echo "$failures failed"
[ "$failures" -eq 0 ]
