using System.Text.Json.Serialization;
using MathNet.Numerics.Statistics;

namespace DivCon.Metrics.Statistics;

/// <summary>
/// A ratio of two means, NTT = mean C^MP / mean C^SP, with Fieller's interval (Fieller 1954; Franz, "Ratios: a short
/// guide to confidence limits and proper use", 2007), which keeps the denominator's noise where the delta method
/// linearises it away: θ is in the interval iff (x̄ − θȳ)² ≤ t² (v_xx − 2θ v_xy + θ² v_yy), with v the variances and
/// covariance of the two means. The interval is bounded only when g = t² v_yy / ȳ² &lt; 1 (the denominator is clearly
/// away from zero); otherwise it is null and <see cref="G"/> says why. It is not symmetric around the ratio.
/// <list type="bullet">
/// <item><see cref="RatioBasis.Invocations"/>: x_b, y_b are per-invocation means over n ≥ 2 independent invocations,
/// paired (one C^SP per invocation serves its C^MP): v = sample (co)variances / n, n − 1 degrees of freedom. This is the
/// interval to read.</item>
/// <item><see cref="RatioBasis.Runs"/>: one invocation only, x and y are its runs, independent: v_xy = 0, degrees of
/// freedom by Welch–Satterthwaite on v_xx and θ² v_yy. It says how noisy the runs were, not how another invocation
/// would come out (runs of one process share its state).</item>
/// </list>
/// </summary>
/// <param name="Mean">The ratio of the means.</param>
/// <param name="Count">Numerator values: invocations, or runs.</param>
/// <param name="DenominatorCount">Denominator values: invocations, or runs.</param>
/// <param name="Basis">What the values are.</param>
/// <param name="RelativeStandardDeviation">RSD of the numerator's values (invocation means, or runs); null with one.</param>
/// <param name="G">Fieller's g = t² v_yy / ȳ²; the interval exists when g &lt; 1. Null without spread estimates.</param>
/// <param name="DegreesOfFreedom">Of the t quantile; null without spread estimates.</param>
/// <param name="Ci99">The 99 % interval; null with fewer than two values on either side, or when g ≥ 1.</param>
public sealed record RatioEstimate(
    double Mean,
    [property: JsonPropertyName("n")] int Count,
    [property: JsonPropertyName("nSp")] int DenominatorCount,
    RatioBasis Basis,
    [property: JsonPropertyName("rsd")] double? RelativeStandardDeviation,
    double? G,
    [property: JsonPropertyName("df")] double? DegreesOfFreedom,
    ConfidenceInterval? Ci99)
{
    /// <summary>
    /// The reciprocal 1 / ratio (NP from NTT). Fieller's set for 1/θ is the image of θ's, so the interval is
    /// [1 / upper, 1 / lower] (null when θ's interval reaches 0 or below); g and the degrees of freedom carry over.
    /// </summary>
    public RatioEstimate Reciprocal()
    {
        if (Mean == 0)
        {
            throw new InvalidOperationException("A ratio of zero has no reciprocal.");
        }

        ConfidenceInterval? ci = Ci99 is { Lower: > 0 } c ? new ConfidenceInterval(1 / c.Upper, 1 / c.Lower) : null;
        return this with { Mean = 1 / Mean, Ci99 = ci };
    }

    private static RatioEstimate Fieller(double ratio, double x, double y, double vxx, double vyy, double vxy, double df, int nx, int ny,
        RatioBasis basis, double? rsd, double confidence)
    {
        double t = double.IsPositiveInfinity(df) ? 0 : StudentTQuantiles.TwoSided(df, confidence);
        double t2 = t * t;
        double g = t2 * vyy / (y * y);
        double? dfOut = double.IsPositiveInfinity(df) ? null : df;
        if (g >= 1)
        {
            return new RatioEstimate(ratio, nx, ny, basis, rsd, g, dfOut, null);
        }

        // a θ² + b θ + c ≤ 0 with a > 0 (g < 1): the interval between the roots. The discriminant is ≥ 0 in exact
        // arithmetic (the quadratic is ≤ 0 at θ = x/y for any positive semi-definite covariance); clamp rounding.
        double qa = (y * y) - (t2 * vyy);
        double qb = -2 * ((x * y) - (t2 * vxy));
        double qc = (x * x) - (t2 * vxx);
        double root = Math.Sqrt(Math.Max(0, (qb * qb) - (4 * qa * qc)));
        double lower = (-qb - root) / (2 * qa), upper = (-qb + root) / (2 * qa);
        return new RatioEstimate(ratio, nx, ny, basis, rsd, g, dfOut, new ConfidenceInterval(Math.Min(lower, ratio), Math.Max(upper, ratio)));
    }

    /// <summary>
    /// The ratio mean(<paramref name="numerator"/>) / mean(<paramref name="denominator"/>) with Fieller's interval:
    /// for <see cref="RatioBasis.Invocations"/>, of paired per-invocation means (same length, index b = invocation b;
    /// correlated means); for <see cref="RatioBasis.Runs"/>, of two independent samples of runs (uncorrelated means).
    /// </summary>
    /// <exception cref="ArgumentException">
    /// A sample is empty, a value is not finite, the denominator's mean is not positive, or paired lengths differ.
    /// </exception>
    public static RatioEstimate Of(
        IReadOnlyList<double> numerator, IReadOnlyList<double> denominator, RatioBasis basis, double confidence = Descriptive.Confidence)
    {
        Check(numerator, denominator);
        if (basis == RatioBasis.Invocations && numerator.Count != denominator.Count)
        {
            throw new ArgumentException($"Paired means need one numerator and one denominator per invocation; got {numerator.Count} and {denominator.Count}.");
        }

        int nx = numerator.Count, ny = denominator.Count;
        double x = numerator.Mean(), y = denominator.Mean();
        double ratio = x / y;
        double? rsd = nx >= 2 && x != 0 ? numerator.StandardDeviation() / x : null;
        if (nx < 2 || ny < 2)
        {
            return new RatioEstimate(ratio, nx, ny, basis, rsd, null, null, null);
        }

        double vxx = numerator.Variance() / nx, vyy = denominator.Variance() / ny;
        if (basis == RatioBasis.Invocations)
        {
            // Paired (nx = ny = n): the covariance of the two means counts, with n − 1 degrees of freedom.
            return Fieller(ratio, x, y, vxx, vyy, numerator.Covariance(denominator) / nx, nx - 1, nx, ny, basis, rsd, confidence);
        }

        double a = vxx, b = ratio * ratio * vyy;
        // Welch–Satterthwaite on the two terms of Var(x̄ − θȳ) at θ = the ratio; both zero: no spread at all.
        double df = a + b == 0 ? double.PositiveInfinity : ((a + b) * (a + b)) / ((a * a / (nx - 1)) + (b * b / (ny - 1)));
        return Fieller(ratio, x, y, vxx, vyy, 0, df, nx, ny, basis, rsd, confidence);
    }

    private static void Check(IReadOnlyList<double> numerator, IReadOnlyList<double> denominator)
    {
        ArgumentNullException.ThrowIfNull(numerator);
        ArgumentNullException.ThrowIfNull(denominator);
        if (numerator.Count == 0 || denominator.Count == 0)
        {
            throw new ArgumentException("Both samples need at least one value.");
        }

        if (numerator.Concat(denominator).Any(v => !double.IsFinite(v)))
        {
            throw new ArgumentException("Sample values must be finite.");
        }

        if (!(denominator.Mean() > 0))
        {
            throw new ArgumentException($"The denominator's mean must be positive; got {denominator.Mean()}.", nameof(denominator));
        }
    }
}
