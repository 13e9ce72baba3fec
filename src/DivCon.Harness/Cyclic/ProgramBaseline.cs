using DivCon.Metrics.Statistics;

namespace DivCon.Harness.Cyclic;

/// <summary>What was measured of one program alone.</summary>
/// <param name="Program">The program's name.</param>
/// <param name="SpSeconds">Every C^SP run, all repetitions.</param>
/// <param name="SequentialSeconds">One run of the sequential baseline, when a scheme needed the scalability; else null.</param>
/// <param name="Scalability">T_seq / mean C^SP (first repetition), when measured; else null.</param>
public sealed record ProgramBaseline(string Program, IReadOnlyList<double> SpSeconds, double? SequentialSeconds, double? Scalability)
{
    /// <summary>C^SP: the summary of <see cref="SpSeconds"/>.</summary>
    public Estimate Csp => Descriptive.Summarize(SpSeconds.ToArray());
}
