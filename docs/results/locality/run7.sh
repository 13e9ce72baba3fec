#!/bin/bash
# As run: wrote to /tmp/locmeas and copied to docs/results/locality afterwards.
# The machine went quiet (load below 1) at 03:15: two more alternating stealing pairs and one m = 2048 transform
# repetition, started at once.
CLI=/tmp/loc-cli/DivCon.Cli
OUT=/tmp/locmeas
cd /tmp
run() {
  name=$1; shift
  echo "$name start $(date -u +%H:%M:%S) $(cat /proc/loadavg)" >> $OUT/load.log
  timeout 900 $CLI factored "$@" --out $OUT/$name > $OUT/$name.txt 2> $OUT/$name.err
  echo "$name end   $(date -u +%H:%M:%S) rc=$? $(cat /proc/loadavg)" >> $OUT/load.log
}
S="--programs mergesort,workinflation --size medium --runs 10 --warmup 2 --stealing-groups per-worker --plots none"
run steal-all-6 $S --stealing all
run steal-cache-group-first-6 $S --stealing cache-group-first
run steal-cache-group-first-7 $S --stealing cache-group-first
run steal-all-7 $S --stealing all
run transform-m2048-6 --programs transform-static,transform-sliding --size medium --runs 10 --warmup 2 --window-size 2048 --plots none
echo ALLDONE7 >> $OUT/load.log
