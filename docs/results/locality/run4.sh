#!/bin/bash
# As run: the measurements wrote to /tmp/locmeas and were copied to docs/results/locality afterwards.
# Two more transform repetitions (default window and m = 2048 blocks), same waiting rule; starts after run3.sh.
CLI=/tmp/loc-cli/DivCon.Cli
OUT=/tmp/locmeas
cd /tmp
while ! grep -q ALLDONE3 $OUT/load.log; do sleep 5; done
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
for rep in 4 5; do
  run transform-$rep --programs transform-none,transform-static,transform-sliding --size medium --runs 10 --warmup 2
  run transform-m2048-$rep --programs transform-static,transform-sliding --size medium --runs 10 --warmup 2 --window-size 2048
done
echo ALLDONE4 >> $OUT/load.log
