namespace DivCon.Metrics.Statistics;

/// <summary>A two-sided confidence interval [<see cref="Lower"/>, <see cref="Upper"/>].</summary>
public readonly record struct ConfidenceInterval(double Lower, double Upper);
