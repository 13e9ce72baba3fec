namespace DivCon.Metrics.Statistics;

/// <summary>The effects, ANOVA table and intervals of one <see cref="TwoFactorAnova.Analyze"/>. Immutable.</summary>
public sealed class TwoFactorAnovaResult
{
    /// <summary>Names of the row levels (factor A; seed 002: benchmarks).</summary>
    public required IReadOnlyList<string> RowLevels { get; init; }

    /// <summary>Names of the column levels (factor B; seed 002: runtimes).</summary>
    public required IReadOnlyList<string> ColumnLevels { get; init; }

    /// <summary>Replications per cell (r).</summary>
    public required int Replications { get; init; }

    /// <summary>The confidence level of every interval.</summary>
    public required double Confidence { get; init; }

    /// <summary>ȳ_ij., indexed [row][column].</summary>
    public required IReadOnlyList<IReadOnlyList<double>> CellMeans { get; init; }

    /// <summary>μ with its interval.</summary>
    public required EffectInterval GrandMean { get; init; }

    /// <summary>α_i = ȳ_i.. − μ with their intervals.</summary>
    public required IReadOnlyList<EffectInterval> RowEffects { get; init; }

    /// <summary>β_j = ȳ_.j. − μ with their intervals.</summary>
    public required IReadOnlyList<EffectInterval> ColumnEffects { get; init; }

    /// <summary>γ_ij = ȳ_ij. − μ − α_i − β_j, indexed [row][column].</summary>
    public required IReadOnlyList<IReadOnlyList<double>> Interactions { get; init; }

    /// <summary>SSY, SS0, SST, SSA, SSB, SSAB, SSE in that order.</summary>
    public required IReadOnlyList<AnovaSource> Table { get; init; }

    /// <summary>s_e = √MSE.</summary>
    public required double ErrorStandardDeviation { get; init; }

    /// <summary>The two-sided Student-t quantile used for every interval (ab(r − 1) degrees of freedom).</summary>
    public required double TQuantile { get; init; }

    /// <summary>
    /// The contrast β_first − β_second between two columns (seed 002 Table 5: locality − regular runtime), with
    /// s = s_e √(Σh²/(ar)) = s_e √(2/(ar)) (Jain §22.6, contrast coefficients +1, −1 over the column factor).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">An index outside the columns, or the same column twice.</exception>
    public EffectInterval ColumnContrast(int first, int second)
    {
        int b = ColumnLevels.Count;
        if (first < 0 || first >= b || second < 0 || second >= b || first == second)
        {
            throw new ArgumentOutOfRangeException(nameof(first), $"need two different column indices in [0, {b}); got {first} and {second}.");
        }

        double effect = ColumnEffects[first].Effect - ColumnEffects[second].Effect;
        double sd = ErrorStandardDeviation * Math.Sqrt(2.0 / (RowLevels.Count * Replications));
        return new EffectInterval($"{ColumnLevels[first]} − {ColumnLevels[second]}", effect, sd, effect - TQuantile * sd, effect + TQuantile * sd);
    }
}
