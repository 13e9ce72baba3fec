#!/bin/bash
# As run: wrote to /tmp/locmeas and copied to docs/results/locality afterwards.
# Two more transform repetitions right after run7.sh, while the machine stayed quiet.
CLI=/tmp/loc-cli/DivCon.Cli
OUT=/tmp/locmeas
cd /tmp
while ! grep -q ALLDONE7 $OUT/load.log; do sleep 2; done
run() {
  name=$1; shift
  echo "$name start $(date -u +%H:%M:%S) $(cat /proc/loadavg)" >> $OUT/load.log
  timeout 900 $CLI factored "$@" --out $OUT/$name > $OUT/$name.txt 2> $OUT/$name.err
  echo "$name end   $(date -u +%H:%M:%S) rc=$? $(cat /proc/loadavg)" >> $OUT/load.log
}
for rep in 7 8; do
  run transform-$rep --programs transform-none,transform-static,transform-sliding --size medium --runs 10 --warmup 2 --plots none
done
echo ALLDONE8 >> $OUT/load.log
