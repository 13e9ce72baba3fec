using DivCon.Metrics.Statistics;

namespace DivCon.Harness.Open;

/// <summary>A scheme against the baseline on one metric, paired by repetition (the same arrival sequence) on a log scale.</summary>
/// <param name="Metric">For example <c>p99 slowdown request</c> or <c>throughput</c>.</param>
/// <param name="Scheme">The scheme.</param>
/// <param name="Baseline">The scheme it is compared with.</param>
/// <param name="Ratio">scheme / baseline: the geometric mean of the per-repetition ratios, its 99 % interval and p.</param>
/// <param name="PHolm">p after Holm's correction over the schemes compared on this metric; null when p is.</param>
public sealed record OpenComparison(string Metric, string Scheme, string Baseline, PairedRatioResult Ratio, double? PHolm);
