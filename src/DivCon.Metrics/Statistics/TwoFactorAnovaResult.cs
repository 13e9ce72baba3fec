namespace DivCon.Metrics.Statistics;

/// <summary>The effects, ANOVA table and intervals of one <see cref="TwoFactorAnova.Analyze"/>.</summary>
/// <param name="RowLevels">Names of the row levels (factor A; seed 002: benchmarks).</param>
/// <param name="ColumnLevels">Names of the column levels (factor B; seed 002: runtimes).</param>
/// <param name="Replications">Replications per cell (r).</param>
/// <param name="Confidence">The confidence level of every interval.</param>
/// <param name="CellMeans">ȳ_ij., indexed [row][column].</param>
/// <param name="GrandMean">μ with its interval.</param>
/// <param name="RowEffects">α_i = ȳ_i.. − μ with their intervals.</param>
/// <param name="ColumnEffects">β_j = ȳ_.j. − μ with their intervals.</param>
/// <param name="Interactions">γ_ij = ȳ_ij. − μ − α_i − β_j, indexed [row][column].</param>
/// <param name="Table">SSY, SS0, SST, SSA, SSB, SSAB, SSE in that order.</param>
/// <param name="ErrorStandardDeviation">s_e = √MSE.</param>
/// <param name="TQuantile">The two-sided Student-t quantile used for every interval (ab(r − 1) degrees of freedom).</param>
public sealed record TwoFactorAnovaResult(
    IReadOnlyList<string> RowLevels,
    IReadOnlyList<string> ColumnLevels,
    int Replications,
    double Confidence,
    IReadOnlyList<IReadOnlyList<double>> CellMeans,
    EffectInterval GrandMean,
    IReadOnlyList<EffectInterval> RowEffects,
    IReadOnlyList<EffectInterval> ColumnEffects,
    IReadOnlyList<IReadOnlyList<double>> Interactions,
    IReadOnlyList<AnovaSource> Table,
    double ErrorStandardDeviation,
    double TQuantile)
{
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
