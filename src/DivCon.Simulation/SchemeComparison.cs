using DivCon.Harness.Statistics;

namespace DivCon.Simulation;

/// <summary>Whether two schemes' ANTT or STP differ significantly over the repetitions (Welch's t-test, 99 %).</summary>
/// <param name="SchemeA">First scheme.</param>
/// <param name="SchemeB">Second scheme.</param>
/// <param name="Metric"><c>antt</c> or <c>stp</c>.</param>
/// <param name="Test">The test; its verdict is "not enough repetitions" with fewer than two.</param>
public sealed record SchemeComparison(string SchemeA, string SchemeB, string Metric, WelchTestResult Test);
