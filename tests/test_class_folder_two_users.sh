#!/usr/bin/env bash
# A class folder shared by two participants (issue 72): two Unix accounts
# in one group, the folder set up as docs/usage.md says (group-owned,
# setgid and sticky, 3770). Each one's check lands in a folder of their
# own that the group reads (0750, files 0640, the class's group); neither
# can write into, remove or rename the other's, and handing in under the
# other's name is refused in one message while the check itself goes on.
# Needs root to make the accounts (skipped, 77, otherwise).
#
#   test_class_folder_two_users.sh LADDER
set -uo pipefail
ladder=$1
if [ "$(id -u)" -ne 0 ] || ! command -v useradd >/dev/null || ! command -v setpriv >/dev/null; then
  echo "skipped: needs root, useradd and setpriv to make two accounts"; exit 77
fi
source "$(dirname "$0")/shell_test.sh"  # $work, $failures, expect
group=ladcls$$ ada=ladada$$ bob=ladbob$$
cleanup() {
  userdel "$ada" 2>/dev/null; userdel "$bob" 2>/dev/null
  groupdel "$ada" 2>/dev/null; groupdel "$bob" 2>/dev/null; groupdel "$group" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
# Each account's own group first, the class's as a second: a file takes the
# class's group only through the folders' setgid bit.
groupadd "$group" && useradd -M -U -G "$group" -s /bin/sh "$ada" && useradd -M -U -G "$group" -s /bin/sh "$bob" ||
  { echo "skipped: could not make the accounts"; exit 77; }
as() {  # as USER COMMAND...: run it as that account, with its groups
  local user=$1; shift
  HOME=$work setpriv --reuid="$user" --regid="$user" --init-groups "$@"
}
as "$ada" test -x "$ladder" || { echo "skipped: $ladder is not executable by another account (its folders)"; exit 77; }
chmod 755 "$work"
class=$work/class
mkdir "$class" && chgrp "$group" "$class" && chmod 3770 "$class"

as "$ada" "$ladder" check vector_add --track exercises --variants naive --class-folder "$class" >"$work/ada.out" 2>&1
as "$bob" "$ladder" check vector_add --track exercises --variants naive --class-folder "$class" >"$work/bob.out" 2>&1
for user in "$ada" "$bob"; do
  file=$(ls "$class/$user"/vector_add-check-*.json 2>/dev/null | head -1)
  if [ -z "$file" ]; then
    echo "FAILED: nothing handed in by $user:"; cat "$work/${user:3:3}.out"; failures=$((failures + 1)); continue
  fi
  stat -c '%U %G %a' "$class/$user" >"$work/folder"
  expect "$user's folder is theirs, the class's group's, 750 (setgid kept)" "^$user $group 2?750$" "$work/folder"
  stat -c '%U %G %a' "$file" >"$work/file"
  expect "$user's file is theirs, the class's group's, 640" "^$user $group 640$" "$work/file"
done

# bob cannot touch ada's results, in any way.
ada_file=$(ls "$class/$ada"/*.json 2>/dev/null | head -1)
as "$bob" sh -c "echo forged > '$class/$ada/forged.json'" 2>/dev/null &&
  { echo "FAILED: $bob wrote into $ada's folder"; failures=$((failures + 1)); } || echo "ok: $bob cannot write into $ada's folder"
as "$bob" sh -c "echo forged > '$ada_file'" 2>/dev/null &&
  { echo "FAILED: $bob overwrote $ada's file"; failures=$((failures + 1)); } || echo "ok: $bob cannot overwrite $ada's file"
as "$bob" rm -f "$ada_file" 2>/dev/null
[ -f "$ada_file" ] && echo "ok: $bob cannot remove $ada's file" || { echo "FAILED: $bob removed $ada's file"; failures=$((failures + 1)); }
as "$bob" mv "$class/$ada" "$class/gone" 2>/dev/null &&
  { echo "FAILED: $bob renamed $ada's folder"; failures=$((failures + 1)); } || echo "ok: $bob cannot rename $ada's folder (sticky)"

# Handing in as ada, by bob: refused in one line; the check is printed and exits 0.
as "$bob" "$ladder" check vector_add --track exercises --variants naive --class-folder "$class" --name "$ada" \
  >"$work/pose.out" 2>"$work/pose.err"
expect "bob's check under ada's name still exits 0" "^0$" <(echo $?)
expect "and says it cannot write there" "not handing in: cannot write to $class/$ada" "$work/pose.err"
expect "and prints its verdicts" "^  naive +pass" "$work/pose.out"
ls "$class/$ada" | wc -l >"$work/count"
expect "ada's folder holds ada's one file still" "^1$" "$work/count"

echo "$failures failed"
[ "$failures" -eq 0 ]
