#!/usr/bin/env bash
# Wait until /root/rep/steps has a line starting $1 (at most $2 s), then pack /root/rep into $OUT.
end=$((SECONDS + $2))
while [ $SECONDS -lt $end ] && ! grep -q "^$1 " /root/rep/steps 2>/dev/null; do sleep 5; done
date -u +%T; cat /root/rep/steps; uptime
tail -3 /root/rep/reproduce-*.txt 2>/dev/null | cut -c1-600
tar czf "$OUT/rep.tgz" --exclude='*.png' --exclude='*.svg' --exclude=build -C /root rep 2>/dev/null; ls -la "$OUT"
