namespace DivCon.Metrics;

/// <summary>What <see cref="CyclicAnalysis.Analyze"/> returns.</summary>
/// <param name="Schemes">Per scheme, in report order.</param>
/// <param name="Comparisons">The paired comparisons, Holm-corrected over all of them.</param>
/// <param name="Metrics">Per compared metric: the blocked ANOVA and the run's power.</param>
public sealed record CyclicAnalysisResult(
    IReadOnlyList<SchemeResult> Schemes,
    IReadOnlyList<SchemeComparison> Comparisons,
    IReadOnlyList<MetricInference> Metrics);
