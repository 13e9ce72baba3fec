using MathNet.Numerics.Statistics;

namespace DivCon.Metrics.Statistics;

/// <summary>Descriptive statistics of a sample (thesis §6.3): mean, sample SD, RSD and Student-t interval.</summary>
public static class Descriptive
{
    /// <summary>The confidence level of every interval the harness reports.</summary>
    public const double Confidence = 0.99;

    /// <summary>
    /// Summarizes <paramref name="values"/>: mean; sample standard deviation with Bessel's correction; RSD = sd / mean;
    /// the 99 % interval mean ± t(0.995, n−1) · sd / √n. With one value only the mean is known.
    /// </summary>
    /// <exception cref="ArgumentException">The sample is empty or holds a NaN or infinity.</exception>
    public static Estimate Summarize(IReadOnlyCollection<double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        if (values.Count == 0)
        {
            throw new ArgumentException("A sample needs at least one value.", nameof(values));
        }

        foreach (double v in values)
        {
            if (!double.IsFinite(v))
            {
                throw new ArgumentException($"Sample values must be finite; got {v}.", nameof(values));
            }
        }

        double mean = values.Mean();
        if (values.Count < 2)
        {
            return new Estimate(mean, values.Count, null, null, null);
        }

        double sd = values.StandardDeviation();
        double halfWidth = StudentTQuantiles.TwoSided(values.Count - 1, Confidence) * sd / Math.Sqrt(values.Count);
        return new Estimate(
            mean,
            values.Count,
            sd,
            mean != 0 ? sd / mean : null,
            new ConfidenceInterval(mean - halfWidth, mean + halfWidth));
    }
}
