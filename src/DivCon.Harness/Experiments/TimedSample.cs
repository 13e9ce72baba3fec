using DivCon.Metrics.Statistics;

namespace DivCon.Harness.Experiments;

/// <summary>The recorded run times of one measured point, in seconds, with their summary (mean, sd, 99 % interval).</summary>
/// <param name="Seconds">The run times, in the order measured: at least one, each finite.</param>
public sealed record TimedSample(IReadOnlyList<double> Seconds)
{
    /// <summary>Mean, sample sd, 99 % interval of <see cref="Seconds"/>.</summary>
    public Estimate Summary { get; } = Descriptive.Summarize(Seconds);

    /// <summary>The mean time.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public double Mean => Summary.Mean;
}
