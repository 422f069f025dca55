# What the shell tests share, sourced once they have read their arguments:
# a scratch folder, $work, removed however the test ends; the count of
# failures, which the test's exit status reports; and `expect`, one check
# that a file holds a pattern (the file shown where it does not).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
expect() {  # expect DESCRIPTION PATTERN FILE
  if grep -Eq -- "$2" "$3"; then echo "ok: $1"; else echo "FAILED: $1 (no /$2/ in:)"; cat "$3"; failures=$((failures + 1)); fi
}
