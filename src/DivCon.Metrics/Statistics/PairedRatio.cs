using MathNet.Numerics.Distributions;
using MathNet.Numerics.Statistics;

namespace DivCon.Metrics.Statistics;

/// <summary>
/// A paired comparison of two positive quantities measured in the same blocks (the same process invocation, the same
/// simulated seed) on a log scale: d_b = ln a_b − ln b_b, a one-sample t-test of mean d = 0 with n − 1 degrees of freedom,
/// reported back on the original scale as the ratio exp(mean d) (the geometric mean of a_b / b_b) with its interval
/// exp(mean d ± t · sd_d / √n). Pairing removes what the two share in a block (here: the invocation's own C^SP, its
/// machine state), which an unpaired test counts as noise.
/// </summary>
public static class PairedRatio
{
    /// <summary>The verdict when fewer than two pairs exist.</summary>
    public const string NotEnoughPairs = "not enough invocations";

    /// <summary>
    /// Compares <paramref name="a"/>[b] with <paramref name="b"/>[b], pair by pair, two-sided, with an interval at
    /// <paramref name="confidence"/>. With one pair only the ratio is known. With no spread in the differences p is 0
    /// (a non-zero difference) or 1 (none), and the interval collapses to the ratio.
    /// </summary>
    /// <exception cref="ArgumentException">The lengths differ, there is no pair, or a value is not finite and positive.</exception>
    public static PairedRatioResult Compare(IReadOnlyList<double> a, IReadOnlyList<double> b, double confidence = Descriptive.Confidence)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        if (a.Count != b.Count || a.Count == 0)
        {
            throw new ArgumentException($"Paired samples need the same, non-zero number of values; got {a.Count} and {b.Count}.");
        }

        var d = new double[a.Count];
        for (int i = 0; i < d.Length; i++)
        {
            if (!(a[i] > 0) || !(b[i] > 0) || !double.IsFinite(a[i]) || !double.IsFinite(b[i]))
            {
                throw new ArgumentException($"Paired values must be finite and positive; pair {i} is ({a[i]}, {b[i]}).");
            }

            d[i] = Math.Log(a[i]) - Math.Log(b[i]);
        }

        double mean = d.Mean();
        if (d.Length < 2)
        {
            return new PairedRatioResult(d.Length, mean, null, null, null, null, null);
        }

        double sd = d.StandardDeviation();
        int df = d.Length - 1;
        double? t = sd == 0 ? null : mean / (sd / Math.Sqrt(d.Length));
        double p = t is { } tv ? Math.Clamp(2 * (1 - StudentT.CDF(0, 1, df, Math.Abs(tv))), 0, 1) : mean == 0 ? 1 : 0;
        var result = new PairedRatioResult(d.Length, mean, sd, t, df, p, null);
        return result with { Ci = result.IntervalAt(confidence) }; // no spread: the interval collapses to the ratio
    }
}
