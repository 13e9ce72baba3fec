#!/bin/bash
# As run: the measurements wrote to /tmp/locmeas and were copied to docs/results/locality afterwards.
# Locality measurements (issue 10), second script: waits (up to 5 min) for a 1-minute load average below 2 before
# each invocation; uptime before/after each into load.log.
CLI=/tmp/loc-cli/DivCon.Cli
OUT=/tmp/locmeas
cd /tmp
waitlow() {
  for i in $(seq 1 60); do
    l=$(cut -d' ' -f1 /proc/loadavg)
    if awk "BEGIN{exit !($l < 2.0)}"; then return; fi
    sleep 5
  done
}
run() { # name args...
  name=$1; shift
  waitlow
  echo "$name start $(date -u +%H:%M:%S) $(cat /proc/loadavg)" >> $OUT/load.log
  timeout 900 $CLI factored "$@" --out $OUT/$name > $OUT/$name.txt 2> $OUT/$name.err
  echo "$name end   $(date -u +%H:%M:%S) rc=$? $(cat /proc/loadavg)" >> $OUT/load.log
}
for rep in 1 2 3; do
  run transform-$rep --programs transform-none,transform-static,transform-sliding --size medium --runs 10 --warmup 2
  run transform-m2048-$rep --programs transform-static,transform-sliding --size medium --runs 10 --warmup 2 --window-size 2048
done
for sc in all cache-group-first; do
  run steal-$sc-3 --programs mergesort,workinflation --size medium --runs 10 --warmup 2 --stealing $sc --stealing-groups per-worker
done
echo ALLDONE2 >> $OUT/load.log
