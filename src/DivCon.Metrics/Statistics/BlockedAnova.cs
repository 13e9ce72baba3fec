namespace DivCon.Metrics.Statistics;

/// <summary>
/// The randomized complete block design without replication (Montgomery, <i>Design and Analysis of Experiments</i>,
/// ch. 4): y_tb = μ + τ_t + β_b + e_tb for treatments t = 1..k (schemes) observed once in each block b = 1..n
/// (invocations). The block effect is taken out of the error before the treatments are tested: when blocks differ a
/// lot (an invocation that ran slow under every scheme), an analysis that ignores them counts that as noise. A pure
/// function of the observations.
/// </summary>
public static class BlockedAnova
{
    /// <summary>
    /// The ANOVA table of <paramref name="observations"/>[t][b] (treatment t in block b): lines named
    /// <paramref name="treatmentName"/>, <paramref name="blockName"/>, <c>error</c> and <c>total</c>.
    /// SS_t = n Σ(ȳ_t. − ȳ..)², SS_b = k Σ(ȳ_.b − ȳ..)², SS_total = Σ(y − ȳ..)², SS_e = SS_total − SS_t − SS_b, with
    /// k − 1, n − 1, (k − 1)(n − 1) and kn − 1 degrees of freedom; F = MS / MS_e and its p from the F distribution.
    /// </summary>
    /// <exception cref="ArgumentException">Fewer than two treatments or blocks, a ragged array, or a non-finite value.</exception>
    public static BlockedAnovaResult Analyze(double[][] observations, string treatmentName = "treatment", string blockName = "block")
    {
        ArgumentNullException.ThrowIfNull(observations);
        int k = observations.Length;
        int n = k > 0 ? observations[0]?.Length ?? 0 : 0;
        if (k < 2 || n < 2)
        {
            throw new ArgumentException($"A blocked design needs at least 2 treatments and 2 blocks; got {k} and {n}.", nameof(observations));
        }

        foreach (double[] row in observations)
        {
            if (row is null || row.Length != n)
            {
                throw new ArgumentException($"Every treatment needs one value in each of the {n} blocks.", nameof(observations));
            }

            if (row.Any(v => !double.IsFinite(v)))
            {
                throw new ArgumentException("Observations must be finite.", nameof(observations));
            }
        }

        double grand = observations.Sum(r => r.Sum()) / (k * n);
        double[] treatmentMeans = observations.Select(r => r.Average()).ToArray();
        double[] blockMeans = Enumerable.Range(0, n).Select(b => observations.Average(r => r[b])).ToArray();
        double ssTotal = observations.Sum(r => r.Sum(y => (y - grand) * (y - grand)));
        double ssTreatment = n * treatmentMeans.Sum(m => (m - grand) * (m - grand));
        double ssBlock = k * blockMeans.Sum(m => (m - grand) * (m - grand));
        // Rounding can leave a tiny negative remainder when the error is exactly zero.
        double ssError = Math.Max(0, ssTotal - ssTreatment - ssBlock);
        int dfT = k - 1, dfB = n - 1, dfE = (k - 1) * (n - 1);
        double mse = ssError / dfE;
        return new BlockedAnovaResult(k, n,
        [
            AnovaSource.Effect(treatmentName, ssTreatment, dfT, mse, dfE, ssTotal),
            AnovaSource.Effect(blockName, ssBlock, dfB, mse, dfE, ssTotal),
            new AnovaSource("error", ssError, AnovaSource.PercentOf(ssError, ssTotal), dfE, mse, null, null),
            new AnovaSource("total", ssTotal, ssTotal > 0 ? 100 : null, (k * n) - 1, null, null, null),
        ]);
    }
}
