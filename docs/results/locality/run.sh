#!/bin/bash
# As run: the measurements wrote to /tmp/locmeas and were copied to docs/results/locality afterwards.
# Locality measurements (issue 10). Each invocation: uptime before/after into load.log.
CLI=/tmp/loc-cli/DivCon.Cli
OUT=/tmp/locmeas
cd /tmp
run() { # name args...
  name=$1; shift
  echo "$name start $(date -u +%H:%M:%S) $(uptime)" >> $OUT/load.log
  timeout 900 $CLI factored "$@" --out $OUT/$name > $OUT/$name.txt 2> $OUT/$name.err
  echo "$name end   $(date -u +%H:%M:%S) rc=$? $(uptime)" >> $OUT/load.log
}
for rep in 1 2 3; do
  if [ $((rep % 2)) -eq 1 ]; then order="all cache-group-first"; else order="cache-group-first all"; fi
  for sc in $order; do
    run steal-$sc-$rep --programs mergesort,workinflation --size medium --runs 10 --warmup 2 --stealing $sc --stealing-groups per-worker
  done
  run transform-$rep --programs transform-none,transform-static,transform-sliding --size medium --runs 10 --warmup 2
done
echo ALLDONE >> $OUT/load.log
