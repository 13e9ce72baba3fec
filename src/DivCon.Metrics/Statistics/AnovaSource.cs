namespace DivCon.Metrics.Statistics;

/// <summary>One line of an ANOVA table (Jain, ch. 22): a source of variation and its test against the error.</summary>
/// <param name="Source">SSY, SS0, SST, SSA (rows), SSB (columns), SSAB (interaction) or SSE (error).</param>
/// <param name="SumOfSquares">The sum of squares.</param>
/// <param name="PercentOfVariation">100 · SS / SST (null for SSY and SS0, which are not parts of SST).</param>
/// <param name="DegreesOfFreedom">The degrees of freedom.</param>
/// <param name="MeanSquare">SS / df for the effects and the error; null otherwise.</param>
/// <param name="F">MS / MSE for the effects; null otherwise.</param>
/// <param name="P">P(F(df, df_E) ≥ F), from the Fisher–Snedecor distribution; null where F is.</param>
public sealed record AnovaSource(string Source, double SumOfSquares, double? PercentOfVariation, int DegreesOfFreedom, double? MeanSquare, double? F, double? P);
