using DivCon.Metrics.Results;

namespace DivCon.Harness.Open;

/// <summary>
/// The record <c>open.json</c> holds: the settings, each job class measured alone, every repetition's arrivals and
/// every scheme's per-job turnaround times (raw: everything else is recomputed from them by
/// <see cref="OpenAnalysis"/>), the per-scheme summary and the paired comparisons with the baseline.
/// </summary>
/// <param name="Settings">What was run.</param>
/// <param name="Classes">The job classes, measured alone.</param>
/// <param name="Schemes">The schemes, in report order.</param>
/// <param name="Baseline">The scheme the others are compared with.</param>
/// <param name="Repetitions">Every repetition's arrivals and runs.</param>
/// <param name="Summary">Per scheme, from <see cref="Repetitions"/>.</param>
/// <param name="Comparisons">Per metric and scheme, from <see cref="Repetitions"/>.</param>
public sealed record OpenResult(
    OpenSettings Settings, IReadOnlyList<OpenClassInfo> Classes, IReadOnlyList<string> Schemes, string Baseline,
    IReadOnlyList<OpenRepetition> Repetitions, IReadOnlyList<OpenSchemeSummary> Summary, IReadOnlyList<OpenComparison> Comparisons) : ExperimentFile(FileKind)
{
    /// <summary>The file kind and base name.</summary>
    public const string FileKind = "open";
}
