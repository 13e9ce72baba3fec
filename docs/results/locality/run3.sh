#!/bin/bash
# As run: the measurements wrote to /tmp/locmeas and were copied to docs/results/locality afterwards.
# Two more alternating All / CacheGroupFirst(per-worker) repetitions at a quieter moment (same waiting rule as run2.sh).
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
run() {
  name=$1; shift
  waitlow
  echo "$name start $(date -u +%H:%M:%S) $(cat /proc/loadavg)" >> $OUT/load.log
  timeout 900 $CLI factored "$@" --out $OUT/$name > $OUT/$name.txt 2> $OUT/$name.err
  echo "$name end   $(date -u +%H:%M:%S) rc=$? $(cat /proc/loadavg)" >> $OUT/load.log
}
for sc in cache-group-first all; do
  run steal-$sc-4 --programs mergesort,workinflation --size medium --runs 10 --warmup 2 --stealing $sc --stealing-groups per-worker
done
for sc in all cache-group-first; do
  run steal-$sc-5 --programs mergesort,workinflation --size medium --runs 10 --warmup 2 --stealing $sc --stealing-groups per-worker
done
echo ALLDONE3 >> $OUT/load.log
