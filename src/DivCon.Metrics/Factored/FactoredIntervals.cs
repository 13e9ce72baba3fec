using DivCon.Metrics.Statistics;

namespace DivCon.Metrics.Factored;

/// <summary>
/// 99 % percentile bootstrap intervals of one factored point over the measurement's rounds (<see cref="FactoredAnalysis"/>):
/// each resample draws rounds with replacement, keeping together the T_s, T_1, T_P, I_P and T_elision a round measured
/// side by side, and recomputes every quantity from the means. Null for a quantity that was not finite in some resample
/// (an inflation-specific speedup whose W_P ≤ 0), and for every one with fewer than two rounds.
/// </summary>
/// <param name="Rounds">Rounds resampled.</param>
/// <param name="Tp">T_P.</param>
/// <param name="Ip">I_P.</param>
/// <param name="Fp">F_P, the leftover P·T_P − I_P − T_1.</param>
/// <param name="Maximal">P·T_s/T_1.</param>
/// <param name="IdleSpecific">P·T_s/(T_1 + I_P).</param>
/// <param name="InflationSpecific">P·T_s/(P·T_P − I_P).</param>
/// <param name="Actual">T_s/T_P.</param>
/// <param name="Elision">P·T_s/T_elision, null without an elision.</param>
public sealed record FactoredIntervals(
    int Rounds,
    ConfidenceInterval? Tp,
    ConfidenceInterval? Ip,
    ConfidenceInterval? Fp,
    ConfidenceInterval? Maximal,
    ConfidenceInterval? IdleSpecific,
    ConfidenceInterval? InflationSpecific,
    ConfidenceInterval? Actual,
    ConfidenceInterval? Elision)
{
    /// <summary>The interval of the curve named <paramref name="name"/> (one of <see cref="FactoredSpeedups.Names"/>); null for linear.</summary>
    public ConfidenceInterval? Get(string name) => FactoredSpeedups.Pick(name, null, Maximal, IdleSpecific, InflationSpecific, Actual, Elision);
}
