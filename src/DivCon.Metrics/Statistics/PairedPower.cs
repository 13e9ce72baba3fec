namespace DivCon.Metrics.Statistics;

/// <summary>
/// Power and sample size of a two-sided paired t-test on a log scale (the scheme comparisons of
/// <see cref="PairedRatio"/>), by the usual approximation with central t quantiles: n pairs with a standard deviation
/// sd of the log differences detect a true log ratio δ with probability ≈ <c>power</c> at level α when
/// δ ≥ (t(1 − α/2, n − 1) + t(power, n − 1)) · sd / √n. For a family of m comparisons corrected by Holm, plan with
/// α / m (Holm's first, strictest step: Bonferroni), so the answer holds for every comparison in the family.
/// </summary>
public static class PairedPower
{
    /// <summary>
    /// The smallest log ratio that <paramref name="pairs"/> pairs resolve with probability <paramref name="power"/> at
    /// level <paramref name="alpha"/>; null with fewer than two pairs. exp(result) − 1 is the relative difference.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">A negative or non-finite sd, or alpha, power outside (0, 1).</exception>
    public static double? MinimumDetectableLogRatio(double sdLog, int pairs, double alpha, double power)
    {
        Check(sdLog, alpha, power);
        if (pairs < 2)
        {
            return null;
        }

        int df = pairs - 1;
        return (StudentTQuantiles.TwoSided(df, 1 - alpha) + OneSided(df, power)) * sdLog / Math.Sqrt(pairs);
    }

    /// <summary>
    /// The fewest pairs (at least 2, at most <paramref name="maxPairs"/>) whose minimum detectable log ratio is at most
    /// <paramref name="logRatio"/>; null when even <paramref name="maxPairs"/> do not suffice.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">A bad sd, alpha or power, a log ratio that is not positive, or maxPairs below 2.</exception>
    public static int? RequiredPairs(double sdLog, double logRatio, double alpha, double power, int maxPairs)
    {
        Check(sdLog, alpha, power);
        if (!(logRatio > 0) || !double.IsFinite(logRatio))
        {
            throw new ArgumentOutOfRangeException(nameof(logRatio), logRatio, "The difference to detect must be positive.");
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(maxPairs, 2);
        for (int n = 2; n <= maxPairs; n++)
        {
            if (MinimumDetectableLogRatio(sdLog, n, alpha, power) <= logRatio)
            {
                return n;
            }
        }

        return null;
    }

    /// <summary>The one-sided quantile t(p, df), p ≥ 0.5, as the two-sided critical value at confidence 2p − 1.</summary>
    private static double OneSided(int df, double p) => p == 0.5 ? 0 : StudentTQuantiles.TwoSided(df, (2 * p) - 1);

    private static void Check(double sdLog, double alpha, double power)
    {
        if (!(sdLog >= 0) || !double.IsFinite(sdLog))
        {
            throw new ArgumentOutOfRangeException(nameof(sdLog), sdLog, "The standard deviation must be finite and 0 or more.");
        }

        if (!(alpha > 0 && alpha < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(alpha), alpha, "alpha must lie strictly between 0 and 1.");
        }

        if (!(power >= 0.5 && power < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(power), power, "power must lie in [0.5, 1).");
        }
    }
}
