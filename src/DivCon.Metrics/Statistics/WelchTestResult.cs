using System.Text.Json.Serialization;

namespace DivCon.Metrics.Statistics;

/// <summary>The outcome of comparing two samples' means with Welch's unequal-variance t-test.</summary>
/// <param name="MeanA">Mean of the first sample.</param>
/// <param name="MeanB">Mean of the second sample.</param>
/// <param name="T">The t statistic (A − B) / √(s_a²/n_a + s_b²/n_b), or null when it cannot be computed.</param>
/// <param name="DegreesOfFreedom">Welch–Satterthwaite degrees of freedom, or null.</param>
/// <param name="PValue">Two-sided p-value, or null when the test could not be run.</param>
/// <param name="Significant">Whether p &lt; 1 − confidence; null when the test could not be run.</param>
/// <param name="Verdict">One phrase for reports: "significant at 99 %", "not significant at 99 %", or "not enough repetitions".</param>
public sealed record WelchTestResult(
    double MeanA,
    double MeanB,
    double? T,
    [property: JsonPropertyName("df")] double? DegreesOfFreedom,
    [property: JsonPropertyName("p")] double? PValue,
    bool? Significant,
    string Verdict)
{
    /// <summary>MeanA − MeanB.</summary>
    public double Difference => MeanA - MeanB;
}
