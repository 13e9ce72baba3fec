namespace DivCon.Metrics.Statistics;

/// <summary>An estimated effect (or contrast) with its two-sided confidence interval.</summary>
/// <param name="Name">The level (or "a − b" for a contrast).</param>
/// <param name="Effect">The point estimate.</param>
/// <param name="StandardDeviation">The estimate's standard deviation, from the error mean square.</param>
/// <param name="Lower">Lower end of the interval.</param>
/// <param name="Upper">Upper end of the interval.</param>
public sealed record EffectInterval(string Name, double Effect, double StandardDeviation, double Lower, double Upper)
{
    /// <summary>True when the interval excludes zero (the effect is significant at the interval's level).</summary>
    public bool IsSignificant => Lower > 0 || Upper < 0;
}
