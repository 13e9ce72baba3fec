using MathNet.Numerics.Distributions;

namespace DivCon.Metrics.Statistics;

/// <summary>One line of an ANOVA table (Jain, ch. 22): a source of variation and its test against the error.</summary>
/// <param name="Source">SSY, SS0, SST, SSA (rows), SSB (columns), SSAB (interaction) or SSE (error).</param>
/// <param name="SumOfSquares">The sum of squares.</param>
/// <param name="PercentOfVariation">100 · SS / SST (null for SSY and SS0, which are not parts of SST).</param>
/// <param name="DegreesOfFreedom">The degrees of freedom.</param>
/// <param name="MeanSquare">SS / df for the effects and the error; null otherwise.</param>
/// <param name="F">MS / MSE for the effects; null otherwise.</param>
/// <param name="P">P(F(df, df_E) ≥ F), from the Fisher–Snedecor distribution; null where F is.</param>
public sealed record AnovaSource(string Source, double SumOfSquares, double? PercentOfVariation, int DegreesOfFreedom, double? MeanSquare, double? F, double? P)
{
    /// <summary>
    /// An effect's line: its share of <paramref name="sst"/>, MS = SS / df, F = MS / MSE and its p-value against the
    /// error's <paramref name="errorDf"/>. With a zero error F is infinite for a non-zero effect (p = 0) and undefined
    /// for a zero one (NaN, left so).
    /// </summary>
    internal static AnovaSource Effect(string name, double ss, int df, double mse, int errorDf, double sst)
    {
        double ms = ss / df;
        double f = ms / mse;
        double p = double.IsNaN(f) ? double.NaN : double.IsPositiveInfinity(f) ? 0 : 1 - FisherSnedecor.CDF(df, errorDf, f);
        return new AnovaSource(name, ss, PercentOf(ss, sst), df, ms, f, p);
    }

    /// <summary>100 · SS / SST, or null when SST is zero.</summary>
    internal static double? PercentOf(double ss, double sst) => sst > 0 ? 100 * ss / sst : null;
}
