using DivCon.Metrics.Statistics;

namespace DivCon.Metrics;

/// <summary>How <see cref="CyclicAnalysis"/> compares schemes; recorded in every result so that it can be recomputed.</summary>
public sealed record AnalysisOptions
{
    /// <summary>The confidence of every interval and 1 − α of every test (0.99).</summary>
    public double Confidence { get; init; } = Descriptive.Confidence;

    /// <summary>
    /// A scheme to compare every other against (the family is then k − 1 comparisons per metric instead of k(k − 1)/2,
    /// which buys power); null compares every pair.
    /// </summary>
    public string? Baseline { get; init; }

    /// <summary>The power the planning figures are for (0.8).</summary>
    public double Power { get; init; } = 0.8;

    /// <summary>The relative difference the planning figure is for (0.05 = 5 %).</summary>
    public double Detect { get; init; } = 0.05;

    /// <summary>The most invocations the planning figure considers.</summary>
    public int MaxInvocations { get; init; } = 100;

    /// <summary>Resamples of each bootstrap interval.</summary>
    public int BootstrapResamples { get; init; } = Bootstrap.DefaultResamples;

    /// <summary>The bootstrap's seed.</summary>
    public int BootstrapSeed { get; init; } = Bootstrap.DefaultSeed;

    /// <summary>Every problem with these options (one line each); empty when none.</summary>
    public IReadOnlyList<string> Validate(IReadOnlyCollection<string>? schemes = null)
    {
        var problems = new List<string>();
        problems.AddIf(!(Confidence > 0 && Confidence < 1), $"the confidence must lie strictly between 0 and 1; got {Confidence}.");
        problems.AddIf(!(Power >= 0.5 && Power < 1), $"the power must lie in [0.5, 1); got {Power}.");
        problems.AddIf(!(Detect > 0) || !double.IsFinite(Detect), $"the difference to detect must be positive; got {Detect}.");
        problems.AddIf(MaxInvocations < 2, $"the planning cap must be at least 2 invocations; got {MaxInvocations}.");
        problems.AddIf(BootstrapResamples < 1, $"the bootstrap needs at least one resample; got {BootstrapResamples}.");
        problems.AddIf(Baseline is not null && schemes is not null && !schemes.Contains(Baseline, StringComparer.OrdinalIgnoreCase),
            $"the baseline '{Baseline}' is not one of the schemes run ({string.Join(", ", schemes ?? [])}).");
        return problems;
    }
}
