namespace DivCon.Metrics.Throttling;

/// <summary>
/// The throttling of a set of runs (the runs behind one mean time): how many were throttled and the means per run.
/// </summary>
/// <param name="Runs">Runs summarised (each with a sample).</param>
/// <param name="ThrottledRuns">Runs during which at least one period was throttled.</param>
/// <param name="MeanThrottledSeconds">Mean throttled core-seconds per run (Θ).</param>
/// <param name="MeanThrottledPeriods">Mean throttled periods per run.</param>
/// <param name="MeanPeriods">Mean enforcement periods per run.</param>
public sealed record ThrottlingSummary(int Runs, int ThrottledRuns, double MeanThrottledSeconds, double MeanThrottledPeriods, double MeanPeriods)
{
    /// <summary>True when any run was throttled.</summary>
    public bool WasThrottled => ThrottledRuns > 0;

    /// <summary>
    /// The summary of <paramref name="samples"/>; null when there is none or any run has no sample (no cgroup to read,
    /// or a reading failed): a partial summary would pass for a complete one.
    /// </summary>
    public static ThrottlingSummary? Of(IReadOnlyList<ThrottlingSample?>? samples)
    {
        if (samples is null || samples.Count == 0 || samples.Any(s => s is null))
        {
            return null;
        }

        return new ThrottlingSummary(
            samples.Count,
            samples.Count(s => s!.WasThrottled),
            samples.Average(s => s!.ThrottledSeconds),
            samples.Average(s => (double)s!.ThrottledPeriods),
            samples.Average(s => (double)s!.Periods));
    }
}
