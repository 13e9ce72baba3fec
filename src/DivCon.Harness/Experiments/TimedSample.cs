using DivCon.Metrics.Statistics;

namespace DivCon.Harness.Experiments;

/// <summary>The recorded run times of one measured point, in seconds, with their summary (mean, sd, 99 % interval).</summary>
public sealed record TimedSample
{
    /// <summary>A sample of at least one finite time.</summary>
    public TimedSample(IReadOnlyList<double> seconds)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        Seconds = seconds.ToArray();
        Summary = Descriptive.Summarize(Seconds.ToArray());
    }

    /// <summary>The run times, in the order measured.</summary>
    public IReadOnlyList<double> Seconds { get; }

    /// <summary>Mean, sample sd, 99 % interval of <see cref="Seconds"/>.</summary>
    public Estimate Summary { get; }

    /// <summary>The mean time.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public double Mean => Summary.Mean;
}
