#!/bin/bash
# As run: wrote to /tmp/locmeas and copied to docs/results/locality afterwards.
# run5.sh again (tsteal-*-3, -4) and one more transform repetition, started at once on a quiet machine.
# all vs cache-group-first with per-worker groups, alternating, 2 invocations each; same waiting rule as run2.sh.
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
run tsteal-all-3 --programs transform-none --size medium --runs 10 --warmup 2 --stealing all --stealing-groups per-worker --plots none
run tsteal-cache-group-first-3 --programs transform-none --size medium --runs 10 --warmup 2 --stealing cache-group-first --stealing-groups per-worker --plots none
run tsteal-cache-group-first-4 --programs transform-none --size medium --runs 10 --warmup 2 --stealing cache-group-first --stealing-groups per-worker --plots none
run tsteal-all-4 --programs transform-none --size medium --runs 10 --warmup 2 --stealing all --stealing-groups per-worker --plots none
run transform-6 --programs transform-none,transform-static,transform-sliding --size medium --runs 10 --warmup 2
echo ALLDONE6 >> $OUT/load.log
