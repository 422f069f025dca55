#!/usr/bin/env bash
# Wait for a file to appear (at most $2 seconds), then pack /root/ref into $OUT.
end=$((SECONDS + $2))
while [ $SECONDS -lt $end ] && [ ! -f "$1" ]; do sleep 5; done
date -u +%T; ls /root/ref /root/ref/run 2>/dev/null
grep -E "^== |replicate" /root/ref/reference_run.log | tail -4; tail -4 /root/ref/reference_run.log
tar czf "$OUT/ref.tgz" -C /root ref 2>/dev/null; ls -la "$OUT"
