using DivCon.Metrics.Results;

namespace DivCon.Harness.Experiments;

/// <summary>
/// The result of <see cref="GranularityExperiment"/> (thesis Figures 7.1–7.2), the record <c>granularity.json</c>
/// holds. Granularity = problem size / divisor (rounded up, at least 1); divisor 1 is the sequential elision run
/// through the scheduler.
/// </summary>
/// <param name="Settings">Programs, size, runs, processors (cores = their number).</param>
/// <param name="MaxDepth">The finest granularity is problem size / 2^MaxDepth.</param>
/// <param name="Programs">One per program, in the order asked for.</param>
public sealed record GranularityResult(ExperimentSettings Settings, int MaxDepth, IReadOnlyList<GranularityProgramResult> Programs) : ExperimentFile(FileKind)
{
    /// <summary>The file kind and base name.</summary>
    public const string FileKind = "granularity";
}
