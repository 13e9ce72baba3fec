using MathNet.Numerics.Distributions;
using MathNet.Numerics.Statistics;

namespace DivCon.Metrics.Statistics;

/// <summary>Welch's t-test for two independent samples (MathNet has no t-test class; this is built on <see cref="StudentT.CDF"/>).</summary>
public static class WelchTest
{
    /// <summary>The verdict when either sample has fewer than two values.</summary>
    public const string NotEnoughRepetitions = "not enough repetitions";

    /// <summary>
    /// Tests whether the means of <paramref name="a"/> and <paramref name="b"/> differ, two-sided, at
    /// <paramref name="confidence"/> (99 % by default). Needs at least two values in each sample; otherwise the
    /// result says <see cref="NotEnoughRepetitions"/>. When both samples have zero variance, equal means are "not
    /// significant" (p = 1) and different means "significant" (p = 0, t and df undefined).
    /// </summary>
    public static WelchTestResult Compare(IReadOnlyCollection<double> a, IReadOnlyCollection<double> b, double confidence = Descriptive.Confidence)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        if (a.Count == 0 || b.Count == 0)
        {
            throw new ArgumentException("Both samples need at least one value.");
        }

        double ma = a.Mean(), mb = b.Mean();
        if (a.Count < 2 || b.Count < 2)
        {
            return new WelchTestResult(ma, mb, null, null, null, null, NotEnoughRepetitions);
        }

        string percent = (confidence * 100).ToString("0.##", System.Globalization.CultureInfo.InvariantCulture);
        double va = a.Variance() / a.Count, vb = b.Variance() / b.Count;
        double se2 = va + vb;
        if (se2 == 0)
        {
            bool differ = ma != mb;
            return new WelchTestResult(ma, mb, differ ? null : 0, null, differ ? 0 : 1, differ,
                differ ? $"significant at {percent} % (no variance in either sample)" : $"not significant at {percent} %");
        }

        double t = (ma - mb) / Math.Sqrt(se2);
        double df = (se2 * se2) / (((va * va) / (a.Count - 1)) + ((vb * vb) / (b.Count - 1)));
        double p = 2 * (1 - StudentT.CDF(0, 1, df, Math.Abs(t)));
        bool significant = p < 1 - confidence;
        return new WelchTestResult(ma, mb, t, df, p, significant,
            significant ? $"significant at {percent} %" : $"not significant at {percent} %");
    }
}
