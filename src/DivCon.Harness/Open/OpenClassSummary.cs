using DivCon.Metrics.Statistics;

namespace DivCon.Harness.Open;

/// <summary>One job class under one scheme: its slowdown quantiles (turnaround / time alone), each the mean over repetitions of the repetition's quantile with a 99 % bootstrap interval.</summary>
/// <param name="Class">The class.</param>
/// <param name="Jobs">Its jobs over every repetition.</param>
/// <param name="P50">Median slowdown.</param>
/// <param name="P95">95th percentile.</param>
/// <param name="P99">99th percentile.</param>
public sealed record OpenClassSummary(string Class, int Jobs, BootstrapEstimate P50, BootstrapEstimate P95, BootstrapEstimate P99);
