using System.Text.Json.Serialization;

namespace DivCon.Metrics.Statistics;

/// <summary>
/// A ratio of two sample means, NTT = mean(C^MP runs) / mean(C^SP runs), with its spread.
/// <para>
/// <see cref="StandardDeviation"/> and <see cref="RelativeStandardDeviation"/> describe run-to-run variability the
/// way the thesis reports it (§7.5.1): the sample SD of the per-run ratios c_j / mean(C^SP), the denominator held
/// fixed, so RSD equals the RSD of the numerator's runs.
/// </para>
/// <para>
/// The interval is for the ratio of means and also carries the denominator's uncertainty (first-order delta method
/// for two independent means): rse² = s_n²/(k·m_n²) + s_d²/(N·m_d²), SE = ratio · rse, degrees of freedom by
/// Welch–Satterthwaite on the two relative variances, CI = ratio ± t(0.995, df) · SE. It is null when either sample
/// has fewer than two values; when both samples have zero variance it collapses to the point.
/// </para>
/// </summary>
public sealed record RatioEstimate(
    double Mean,
    [property: JsonPropertyName("n")] int NumeratorCount,
    [property: JsonPropertyName("nSp")] int DenominatorCount,
    [property: JsonPropertyName("sd")] double? StandardDeviation,
    [property: JsonPropertyName("rsd")] double? RelativeStandardDeviation,
    [property: JsonPropertyName("se")] double? StandardError,
    [property: JsonPropertyName("df")] double? DegreesOfFreedom,
    ConfidenceInterval? Ci99)
{
    /// <summary>The ratio of the means of <paramref name="numerator"/> and <paramref name="denominator"/>, with its interval.</summary>
    /// <exception cref="ArgumentException">A sample is empty, holds a non-finite value, or the denominator's mean is not positive.</exception>
    public static RatioEstimate Of(IReadOnlyCollection<double> numerator, IReadOnlyCollection<double> denominator)
    {
        Estimate n = Descriptive.Summarize(numerator);
        Estimate d = Descriptive.Summarize(denominator);
        if (!(d.Mean > 0))
        {
            throw new ArgumentException($"The denominator's mean must be positive; got {d.Mean}.", nameof(denominator));
        }

        double ratio = n.Mean / d.Mean;
        double? sd = n.StandardDeviation / d.Mean;
        double? rsd = n.Mean != 0 ? n.StandardDeviation / n.Mean : null;
        if (n.Count < 2 || d.Count < 2 || n.Mean == 0)
        {
            return new RatioEstimate(ratio, n.Count, d.Count, sd, rsd, null, null, null);
        }

        double sn = n.StandardDeviation!.Value, sd2 = d.StandardDeviation!.Value;
        double vn = (sn * sn) / (n.Count * n.Mean * n.Mean);
        double vd = (sd2 * sd2) / (d.Count * d.Mean * d.Mean);
        double rse2 = vn + vd;
        if (rse2 == 0)
        {
            return new RatioEstimate(ratio, n.Count, d.Count, sd, rsd, 0, null, new ConfidenceInterval(ratio, ratio));
        }

        double df = (rse2 * rse2) / (((vn * vn) / (n.Count - 1)) + ((vd * vd) / (d.Count - 1)));
        double se = Math.Abs(ratio) * Math.Sqrt(rse2);
        double half = StudentTQuantiles.TwoSided(df, Descriptive.Confidence) * se;
        return new RatioEstimate(ratio, n.Count, d.Count, sd, rsd, se, df, new ConfidenceInterval(ratio - half, ratio + half));
    }

    /// <summary>
    /// The reciprocal 1 / ratio (NP from NTT), by the same delta method: the relative standard error and the degrees of
    /// freedom carry over, so SE(1/r) = (1/r) · SE(r)/r and the interval is symmetric around 1/r. The run-to-run SD
    /// becomes (1/r) · RSD.
    /// </summary>
    public RatioEstimate Reciprocal()
    {
        if (Mean == 0)
        {
            throw new InvalidOperationException("A ratio of zero has no reciprocal.");
        }

        double inverse = 1 / Mean;
        double? se = StandardError is { } s ? inverse * (s / Math.Abs(Mean)) : null;
        ConfidenceInterval? ci = null;
        if (se is { } e)
        {
            double half = DegreesOfFreedom is { } df ? StudentTQuantiles.TwoSided(df, Descriptive.Confidence) * e : 0;
            ci = new ConfidenceInterval(inverse - half, inverse + half);
        }

        return this with
        {
            Mean = inverse,
            StandardDeviation = RelativeStandardDeviation * Math.Abs(inverse),
            StandardError = se,
            Ci99 = ci,
        };
    }

}
