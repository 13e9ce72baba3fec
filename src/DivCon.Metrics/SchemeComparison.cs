using DivCon.Metrics.Statistics;

namespace DivCon.Metrics;

/// <summary>
/// One metric compared between two schemes, paired by invocation on a log scale (<see cref="PairedRatio"/>), with
/// Holm's correction over the whole family of comparisons of the analysis.
/// </summary>
/// <param name="SchemeA">The numerator's scheme.</param>
/// <param name="SchemeB">The denominator's scheme (the baseline, when one was named).</param>
/// <param name="Metric"><c>antt</c> or <c>stp</c>.</param>
/// <param name="Test">The paired test of A / B (uncorrected p and interval).</param>
/// <param name="HolmP">The p-value adjusted by Holm over the family; null when the test could not be run.</param>
/// <param name="FamilyCi">
/// The ratio's simultaneous (Bonferroni) interval: the family of m comparisons holds its true ratios with 99 %
/// confidence together. It excludes 1 only when Holm resolves the difference too (Holm may resolve a few more).
/// </param>
/// <param name="Resolved">True when the Holm-adjusted p is below 1 − confidence; null when the test could not be run.</param>
/// <param name="Verdict"><c>resolved</c>, <c>not resolved</c> or <c>not enough invocations</c>.</param>
public sealed record SchemeComparison(
    string SchemeA,
    string SchemeB,
    string Metric,
    PairedRatioResult Test,
    double? HolmP,
    ConfidenceInterval? FamilyCi,
    bool? Resolved,
    string Verdict);
