using System.Text.Json.Serialization;

namespace DivCon.Metrics.Statistics;

/// <summary>
/// A mean with its spread: the unit of every number the harness reports. For a quantity measured directly
/// (run times, a scheme's ANTT over repetitions) <see cref="StandardDeviation"/> is the sample standard deviation
/// (Bessel's correction) of the <see cref="Count"/> values and <see cref="Ci99"/> is mean ± t(0.995, n−1)·sd/√n.
/// For a ratio of means (NTT, NP) see <see cref="Statistics.RatioEstimate"/>: the interval there comes from the
/// delta method. <see cref="StandardDeviation"/>, <see cref="RelativeStandardDeviation"/> and <see cref="Ci99"/> are
/// <see langword="null"/> when fewer than two values exist.
/// </summary>
/// <param name="Mean">The point estimate.</param>
/// <param name="Count">How many values it rests on.</param>
/// <param name="StandardDeviation">Sample standard deviation (n−1), or null with fewer than two values.</param>
/// <param name="RelativeStandardDeviation">Standard deviation / mean, or null.</param>
/// <param name="Ci99">The 99 % confidence interval of the mean, or null.</param>
public sealed record Estimate(
    double Mean,
    [property: JsonPropertyName("n")] int Count,
    [property: JsonPropertyName("sd")] double? StandardDeviation,
    [property: JsonPropertyName("rsd")] double? RelativeStandardDeviation,
    ConfidenceInterval? Ci99);
