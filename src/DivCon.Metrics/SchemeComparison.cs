using DivCon.Metrics.Statistics;

namespace DivCon.Metrics;

/// <summary>Welch's test of one metric between two schemes over the repetitions.</summary>
/// <param name="SchemeA">First scheme.</param>
/// <param name="SchemeB">Second scheme.</param>
/// <param name="Metric"><c>antt</c> or <c>stp</c>.</param>
/// <param name="Test">The test's outcome (A − B).</param>
public sealed record SchemeComparison(string SchemeA, string SchemeB, string Metric, WelchTestResult Test);
