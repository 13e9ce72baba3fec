#!/usr/bin/env bash
# T_1 of a sample program under a 1-CPU CFS quota and without it (issue 21: within 5 %), interleaved in one process
# (the probe's t1-quota mode moves itself in and out of the group between runs). Needs root and a writable cgroup v1
# cpu controller, as on the development machine. Prints the probe's JSON: every run time, the workers the default
# scheduler started under the quota, the median of the per-round ratios (inside / outside) and the throttling seen.
#   bash tests/DivCon.CgroupProbe/measure-t1.sh [rounds] [program] [size]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-21}; program=${2:-montecarlopi}; size=${3:-medium}
dotnet build tests/DivCon.CgroupProbe -c Release -v q -nologo >/dev/null
own=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3 }' /proc/self/cgroup)
group="/sys/fs/cgroup/cpu${own%/}/divcon-t1-$$"
mkdir "$group"
trap 'rmdir "$group"' EXIT
echo 100000 > "$group/cpu.cfs_period_us"
echo 100000 > "$group/cpu.cfs_quota_us"
dotnet exec tests/DivCon.CgroupProbe/bin/Release/net10.0/DivCon.CgroupProbe.dll t1-quota --group "$group" --rounds "$rounds" --program "$program" --size "$size"
