#!/usr/bin/env bash
# Screenshots of a `ladder report` page as a browser at 1920 x 1080 shows it
# (headless Chromium), so that every chart can be looked at before a report
# is called done: no overlapping text, no squashed plot, axes labelled.
#
#   scripts/screenshot_report.sh REPORT_DIR OUTDIR
#
# REPORT_DIR is what `ladder report RESULTS.json --out REPORT_DIR` wrote.
# Writes into OUTDIR:
#   first-screen.png       what the page shows as it opens (1920 x 1080)
#   screen-01.png, ...     the page top to bottom, one 1920 x 1080 screen each
#   full-page.png          the whole page in one picture, 1920 pixels wide
# CHROMIUM (default: chromium, then chromium-browser) is the browser
# (Debian: apt-get install chromium; it is not needed to build or test).
set -euo pipefail
usage="usage: scripts/screenshot_report.sh REPORT_DIR OUTDIR"
[ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
report_dir=$1 out=$2
width=1920 height=1080

chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ] || ! command -v "$chromium" >/dev/null; then
  echo "screenshot_report.sh: no Chromium (Debian: apt-get install chromium, or set CHROMIUM)" >&2
  exit 2
fi
page="$report_dir/report.html"
if [ ! -f "$page" ]; then
  echo "screenshot_report.sh: no $page (write it first: ladder report RESULTS.json --out $report_dir)" >&2
  exit 2
fi
# The charts are inline SVG, so a committed reference run's report/ shows them as it is; any image the
# page names by a relative path must be there too (`ladder report` writes the chart files again).
while read -r image; do
  case "$image" in http*|data:*|/*) continue ;; esac
  if [ ! -f "$report_dir/$image" ]; then
    echo "screenshot_report.sh: $page shows $image, which is not there" \
         "(write the report again: ladder report RESULTS.json --out $report_dir)" >&2
    exit 2
  fi
done < <(grep -o '<img[^>]* src="[^"]*"' "$page" | sed 's/.* src="//; s/"$//' || true)

report_dir=$(cd "$report_dir" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(--headless --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$work/profile"
       --virtual-time-budget=10000)
[ "$(id -u)" -eq 0 ] && flags+=(--no-sandbox)  # Chromium's sandbox refuses to run as root

# A copy of the page beside the work files, with the report's folder as its base for relative links and
# STYLE added to its head.
copy() {
  sed "0,/<head>/s|<head>|<head><base href=\"file://$report_dir/\">$1|" "$page" > "$work/page.html"
}
shoot() {  # shoot PNG HEIGHT: the copy in a window WIDTH x HEIGHT
  "$chromium" "${flags[@]}" --window-size="$width,$2" --screenshot="$1" "file://$work/page.html" \
    >>"$work/chromium.log" 2>&1
  if [ ! -s "$1" ]; then
    echo "screenshot_report.sh: Chromium wrote no $1; its messages:" >&2
    tail -20 "$work/chromium.log" >&2
    exit 1
  fi
}

# The page's height, as laid out at this width: read from the DOM once the page has loaded.
measure='document.body.dataset.pageHeight = document.documentElement.scrollHeight'
copy "<script>addEventListener('load', () => $measure)</script>"
page_height=$("$chromium" "${flags[@]}" --window-size="$width,$height" --dump-dom "file://$work/page.html" \
                2>>"$work/chromium.log" | grep -o 'data-page-height="[0-9]*"' | grep -o '[0-9]*' || true)
if [ -z "$page_height" ]; then
  echo "screenshot_report.sh: Chromium could not lay out $page; its messages:" >&2
  tail -20 "$work/chromium.log" >&2
  exit 1
fi

copy ""
shoot "$out/first-screen.png" "$height"
shoot "$out/full-page.png" "$page_height"
# Scrolling does not show in a headless screenshot; the page is moved up instead, one screen at a time.
screens=$(( (page_height + height - 1) / height ))
rm -f "$out"/screen-*.png
for ((i = 0; i < screens; i++)); do
  copy "<style>html{position:relative;top:-$((i * height))px}</style>"
  shoot "$(printf '%s/screen-%02d.png' "$out" $((i + 1)))" "$height"
done
echo "screenshot_report.sh: $out: first-screen.png, full-page.png ($width x $page_height)" \
     "and $screens screens of $width x $height (screen-01.png ...)"
