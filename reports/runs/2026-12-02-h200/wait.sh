#!/usr/bin/env bash
# Wait until /root/ref/steps says $1 (at most $2 seconds), then pack /root/ref into $OUT.
end=$((SECONDS + $2))
while [ $SECONDS -lt $end ] && ! grep -q "^$1 " /root/ref/steps 2>/dev/null; do sleep 5; done
date -u +%T; cat /root/ref/steps; uptime
tail -n 4 /root/ref/workshop.log /root/ref/cupy-rungs.log /root/ref/large.log /root/ref/reproduce-one-gpu.txt 2>/dev/null
tar czf "$OUT/ref.tgz" --exclude='*.png' --exclude='*.svg' --exclude=build-gpu -C /root ref 2>/dev/null; ls -la "$OUT"
