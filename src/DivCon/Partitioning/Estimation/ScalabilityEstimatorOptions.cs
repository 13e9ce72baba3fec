namespace DivCon.Partitioning.Estimation;

/// <summary>
/// Settings of <see cref="OnlineScalabilityEstimator"/>. Every default is a documented choice
/// (<c>docs/online-scalability.md</c>), not a measured optimum.
/// </summary>
public sealed record ScalabilityEstimatorOptions
{
    /// <summary>
    /// Ticks after which an observation weighs half as much (exponential forgetting, so a program that changes phase
    /// is re-estimated); <see cref="double.PositiveInfinity"/> keeps every tick at full weight. Default 600 (one
    /// minute at the 100 ms repartitioning interval).
    /// </summary>
    public double HalfLifeTicks { get; init; } = 600;

    /// <summary>
    /// Effective ticks on two or more cores before there is an estimate. Default 8: ticks inside one run of a
    /// program are alike (a serial start, a parallel middle), so a few ticks can miss whole phases. (Each core count
    /// needs two ticks to count at all: one tick has no variance.)
    /// </summary>
    public double MinTicks { get; init; } = 8;

    /// <summary>Effective finished tasks an allocation needs before its busy time per task is compared. Default 20.</summary>
    public double MinTasksPerAllocation { get; init; } = 20;

    /// <summary>The relative error at which <see cref="ScalabilityEstimate.Confidence"/> reaches 0. Default 0.5.</summary>
    public double MaxRelativeError { get; init; } = 0.5;

    /// <summary>
    /// The highest confidence an estimate gets while work inflation cannot be separated (one allocation seen).
    /// Default 0.5.
    /// </summary>
    public double UnseparatedConfidenceCap { get; init; } = 0.5;

    /// <summary>
    /// The largest fraction of a program's observed ticks that may be probe ticks (at another allocation than the
    /// policy's); 0 turns probing off. Default 0.05.
    /// </summary>
    public double ProbeFraction { get; init; } = 0.05;

    /// <summary>How many consecutive ticks one probe lasts. Default 4.</summary>
    public int ProbeTicks { get; init; } = 4;

    /// <summary>Probing stops once the confidence reaches this (and inflation is separated). Default 0.8.</summary>
    public double ProbeUntilConfidence { get; init; } = 0.8;

    /// <summary>Every problem with these settings, one sentence each; empty when they are valid.</summary>
    public IReadOnlyList<string> Validate()
    {
        var problems = new List<string>();
        if (!(HalfLifeTicks > 0))
        {
            problems.Add($"HalfLifeTicks must be positive (or infinity for no forgetting); got {HalfLifeTicks}.");
        }

        if (!(MinTicks >= 2) || double.IsInfinity(MinTicks))
        {
            problems.Add($"MinTicks must be at least 2 and finite; got {MinTicks}.");
        }

        if (!(MinTasksPerAllocation >= 1) || double.IsInfinity(MinTasksPerAllocation))
        {
            problems.Add($"MinTasksPerAllocation must be at least 1 and finite; got {MinTasksPerAllocation}.");
        }

        if (!(MaxRelativeError > 0) || double.IsInfinity(MaxRelativeError))
        {
            problems.Add($"MaxRelativeError must be positive and finite; got {MaxRelativeError}.");
        }

        if (!(UnseparatedConfidenceCap is >= 0 and <= 1))
        {
            problems.Add($"UnseparatedConfidenceCap must be in [0, 1]; got {UnseparatedConfidenceCap}.");
        }

        if (!(ProbeFraction is >= 0 and < 1))
        {
            problems.Add($"ProbeFraction must be in [0, 1); got {ProbeFraction}.");
        }

        if (ProbeTicks < 1)
        {
            problems.Add($"ProbeTicks must be at least 1; got {ProbeTicks}.");
        }

        if (!(ProbeUntilConfidence is >= 0 and <= 1))
        {
            problems.Add($"ProbeUntilConfidence must be in [0, 1]; got {ProbeUntilConfidence}.");
        }

        return problems;
    }
}
