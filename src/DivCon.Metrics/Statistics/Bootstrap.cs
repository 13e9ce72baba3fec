using MathNet.Numerics.Statistics;

namespace DivCon.Metrics.Statistics;

/// <summary>
/// Percentile bootstrap intervals (Efron and Tibshirani, <i>An Introduction to the Bootstrap</i>, ch. 13): resample the
/// independent units (invocations, or a factored measurement's rounds) with replacement, recompute the statistics on
/// each resample, and take the (1 − c)/2 and (1 + c)/2 quantiles of each statistic over the resamples. It needs no
/// normality and no formula for the statistic's variance, which a maximum (MNTT) or a factored speedup does not have;
/// every statistic of one call sees the same resamples, so an order that holds in every resample (MNTT ≥ ANTT) holds
/// between their bounds too. Seeded: the same input gives the same interval, so a result file can be recomputed
/// exactly. With few units the intervals are rough (n units have at most C(2n − 1, n) distinct resamples: 10 for 3).
/// </summary>
public static class Bootstrap
{
    /// <summary>Resamples per interval.</summary>
    public const int DefaultResamples = 10_000;

    /// <summary>The generator's seed when none is given.</summary>
    public const int DefaultSeed = 20_130_517;

    /// <summary>
    /// Percentile intervals at <paramref name="confidence"/> for the <paramref name="count"/> statistics
    /// <paramref name="statistics"/> computes from the unit indices of a resample (indices into 0 … units − 1, with
    /// repeats). Null for every statistic when there are fewer than two units; null for one statistic when it was not
    /// finite in some resample.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">No unit, no statistic, no resample, or a confidence outside (0, 1).</exception>
    public static ConfidenceInterval?[] Percentile(int units, int count, Func<int[], double[]> statistics, double confidence = Descriptive.Confidence,
        int resamples = DefaultResamples, int seed = DefaultSeed)
    {
        ArgumentNullException.ThrowIfNull(statistics);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(units);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(resamples);
        if (!(confidence > 0 && confidence < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(confidence), confidence, "The confidence level must lie strictly between 0 and 1.");
        }

        var result = new ConfidenceInterval?[count];
        if (units < 2)
        {
            return result;
        }

        double[][] replicates = [.. Enumerable.Range(0, count).Select(_ => new double[resamples])];
        var random = new Random(seed);
        var indices = new int[units];
        for (int r = 0; r < resamples; r++)
        {
            for (int i = 0; i < units; i++)
            {
                indices[i] = random.Next(units);
            }

            double[] values = statistics(indices);
            if (values.Length != count)
            {
                throw new InvalidOperationException($"The statistics function returned {values.Length} values; {count} were announced.");
            }

            for (int s = 0; s < count; s++)
            {
                replicates[s][r] = values[s];
            }
        }

        double lowTail = (1 - confidence) / 2;
        for (int s = 0; s < count; s++)
        {
            double[] sorted = replicates[s];
            if (sorted.Any(v => !double.IsFinite(v)))
            {
                continue;
            }

            Array.Sort(sorted);
            result[s] = new ConfidenceInterval(
                SortedArrayStatistics.QuantileCustom(sorted, lowTail, QuantileDefinition.R7),
                SortedArrayStatistics.QuantileCustom(sorted, 1 - lowTail, QuantileDefinition.R7));
        }

        return result;
    }
}
