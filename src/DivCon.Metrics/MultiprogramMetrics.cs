namespace DivCon.Metrics;

/// <summary>
/// Eyerman &amp; Eeckhout's multiprogram metrics (thesis §2.4): NTT_i = C^MP_i / C^SP_i, NP_i = C^SP_i / C^MP_i,
/// ANTT = mean NTT (lower is better, 1 … n), MNTT = max NTT, STP = Σ NP (higher is better, 1 … n). Pure functions.
/// </summary>
public static class MultiprogramMetrics
{
    /// <summary>Normalized turnaround time of one program: its multiprogram time over its single-program time.</summary>
    public static double Ntt(double cmp, double csp)
    {
        RequirePositive(cmp, nameof(cmp));
        RequirePositive(csp, nameof(csp));
        return cmp / csp;
    }

    /// <summary>Average normalized turnaround time: the arithmetic mean of the programs' NTTs.</summary>
    public static double Antt(IReadOnlyCollection<double> ntts) => RequireNonEmpty(ntts, nameof(ntts)).Average();

    /// <summary>Maximum normalized turnaround time: the largest NTT.</summary>
    public static double Mntt(IReadOnlyCollection<double> ntts) => RequireNonEmpty(ntts, nameof(ntts)).Max();

    /// <summary>System throughput: the sum of the programs' normalized progress.</summary>
    public static double Stp(IReadOnlyCollection<double> nps) => RequireNonEmpty(nps, nameof(nps)).Sum();

    private static IReadOnlyCollection<double> RequireNonEmpty(IReadOnlyCollection<double> values, string name)
    {
        ArgumentNullException.ThrowIfNull(values, name);
        if (values.Count == 0)
        {
            throw new ArgumentException("A workload needs at least one program.", name);
        }

        foreach (double v in values)
        {
            RequirePositive(v, name);
        }

        return values;
    }

    private static void RequirePositive(double value, string name)
    {
        if (!(value > 0) || !double.IsFinite(value))
        {
            throw new ArgumentOutOfRangeException(name, value, "Times and normalized metrics must be positive and finite.");
        }
    }
}
