using DivCon.Scheduling;

namespace DivCon.Metrics.Throttling;

/// <summary>
/// What the cgroup's CFS throttling counters (<c>cpu.stat</c>) counted during one timed run or phase: the difference
/// of two <see cref="CpuThrottling"/> readings taken just before and just after it, kept as a raw sample in the result
/// files. Throttled time is lost to the CPU quota, not to the program (docs/cpu-budget.md).
/// </summary>
/// <param name="Periods">Enforcement periods that elapsed with the group runnable (<c>nr_periods</c>).</param>
/// <param name="ThrottledPeriods">Periods in which the group used up its quota and was stopped (<c>nr_throttled</c>).</param>
/// <param name="ThrottledSeconds">
/// Time the group was held back, summed over the CPUs it was throttled on (<c>throttled_time</c> / <c>throttled_usec</c>):
/// core-seconds, like P·T_P. It counts every thread of the group, not only the run's workers.
/// </param>
public sealed record ThrottlingSample(long Periods, long ThrottledPeriods, double ThrottledSeconds)
{
    /// <summary>True when at least one period was throttled (or throttled time was counted).</summary>
    public bool WasThrottled => ThrottledPeriods > 0 || ThrottledSeconds > 0;

    /// <summary>The sample of a difference of two readings (<c>after - before</c>).</summary>
    public static ThrottlingSample From(CpuThrottling difference)
    {
        ArgumentNullException.ThrowIfNull(difference);
        return new ThrottlingSample(difference.Periods, difference.ThrottledPeriods, difference.ThrottledTime.TotalSeconds);
    }
}
