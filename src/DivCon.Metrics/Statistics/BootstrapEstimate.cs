using System.Text.Json.Serialization;

namespace DivCon.Metrics.Statistics;

/// <summary>
/// A point estimate with a percentile bootstrap interval over independent units (<see cref="Bootstrap"/>): the form of
/// a scheme's ANTT, MNTT and STP, which are functions (a mean, a maximum, a sum of reciprocals) of ratios of means.
/// </summary>
/// <param name="Mean">The estimate from all units.</param>
/// <param name="Count">The units (invocations) it rests on.</param>
/// <param name="Ci99">The 99 % percentile interval; null with fewer than two units.</param>
public sealed record BootstrapEstimate(double Mean, [property: JsonPropertyName("n")] int Count, ConfidenceInterval? Ci99);
