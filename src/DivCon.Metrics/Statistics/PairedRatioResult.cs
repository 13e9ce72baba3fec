using System.Text.Json.Serialization;

namespace DivCon.Metrics.Statistics;

/// <summary>The outcome of <see cref="PairedRatio.Compare"/>: a ratio a / b over paired blocks, on a log scale.</summary>
/// <param name="Pairs">How many blocks (invocations) had both values: n.</param>
/// <param name="MeanLog">Mean of ln a − ln b.</param>
/// <param name="SdLog">Sample standard deviation of ln a − ln b (n − 1); null with one pair.</param>
/// <param name="T">mean / (sd / √n); null with one pair or no spread.</param>
/// <param name="DegreesOfFreedom">n − 1; null with one pair.</param>
/// <param name="P">Two-sided p-value of "the ratio is 1"; null with one pair.</param>
/// <param name="Ci">The ratio's interval at the confidence asked for (before any correction); null with one pair.</param>
public sealed record PairedRatioResult(
    [property: JsonPropertyName("n")] int Pairs,
    double MeanLog,
    double? SdLog,
    double? T,
    [property: JsonPropertyName("df")] double? DegreesOfFreedom,
    [property: JsonPropertyName("p")] double? P,
    ConfidenceInterval? Ci)
{
    /// <summary>The ratio a / b: exp(<see cref="MeanLog"/>), the geometric mean of the per-block ratios.</summary>
    public double Ratio => Math.Exp(MeanLog);

    /// <summary>
    /// The ratio's interval at <paramref name="confidence"/>: exp(mean ± t(n − 1) · sd / √n). A family-wise interval
    /// for m comparisons (Bonferroni) is the one at 1 − (1 − confidence) / m. Null with one pair.
    /// </summary>
    public ConfidenceInterval? IntervalAt(double confidence)
    {
        if (SdLog is not double sd || DegreesOfFreedom is not double df)
        {
            return null;
        }

        double half = sd == 0 ? 0 : StudentTQuantiles.TwoSided(df, confidence) * sd / Math.Sqrt(Pairs);
        return new ConfidenceInterval(Math.Exp(MeanLog - half), Math.Exp(MeanLog + half));
    }
}
