namespace DivCon.Metrics.Statistics;

/// <summary>
/// Holm's step-down correction for a family of m tests (Holm, "A simple sequentially rejective multiple test
/// procedure", 1979): order the p-values p_(1) ≤ … ≤ p_(m); the adjusted p_(k) is max over j ≤ k of
/// min(1, (m − j + 1) · p_(j)). Rejecting where the adjusted p is below α keeps the chance of any false positive in the
/// family at most α, whatever the tests' dependence, and never rejects less than Bonferroni (whose first step it is).
/// </summary>
public static class Holm
{
    /// <summary>
    /// The adjusted p-values, in the order given. Null entries (tests that could not be run) are left null and do not
    /// count towards m.
    /// </summary>
    /// <exception cref="ArgumentException">A p-value is outside [0, 1] or NaN.</exception>
    public static double?[] Adjust(IReadOnlyList<double?> pValues)
    {
        ArgumentNullException.ThrowIfNull(pValues);
        foreach (double? p in pValues)
        {
            if (p is double v && !(v >= 0 && v <= 1))
            {
                throw new ArgumentException($"p-values must lie in [0, 1]; got {v}.", nameof(pValues));
            }
        }

        // Stable order by p, ties by position, so equal p-values get equal adjusted values either way (the running max).
        int[] order = Enumerable.Range(0, pValues.Count).Where(i => pValues[i] is not null).OrderBy(i => pValues[i]!.Value).ThenBy(i => i).ToArray();
        int m = order.Length;
        var adjusted = new double?[pValues.Count];
        double running = 0;
        for (int k = 0; k < m; k++)
        {
            running = Math.Max(running, Math.Min(1, (m - k) * pValues[order[k]]!.Value));
            adjusted[order[k]] = running;
        }

        return adjusted;
    }
}
