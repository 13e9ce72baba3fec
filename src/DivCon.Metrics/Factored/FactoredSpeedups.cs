namespace DivCon.Metrics.Factored;

/// <summary>
/// The six curves of a factored speedup plot at one core count (seed 001 §2.3, seed 000 §2.7–2.8), each a ratio of
/// mean times: linear P; maximal P·T_s/T_1; idle-time-specific P·T_s/(T_1 + I_P); inflation-specific
/// P·T_s/(P·T_P − I_P); actual T_s/T_P; elision P·T_s/T_elision (null when the program has no sequential elision).
/// </summary>
/// <param name="Linear">P.</param>
/// <param name="Maximal">P·T_s/T_1: no idle time, no work inflation.</param>
/// <param name="IdleSpecific">P·T_s/(T_1 + I_P): idle time counted, no work inflation.</param>
/// <param name="InflationSpecific">P·T_s/(P·T_P − I_P) = P·T_s/(T_1 + F_P): work inflation counted, no idle time.</param>
/// <param name="Actual">T_s/T_P.</param>
/// <param name="Elision">P·T_s/T_elision, or null.</param>
public sealed record FactoredSpeedups(
    double Linear,
    double Maximal,
    double IdleSpecific,
    double InflationSpecific,
    double Actual,
    double? Elision)
{
    /// <summary>The JSON names of the curves, in plot order (top to bottom in seed 001 Figure 2, elision last).</summary>
    public static IReadOnlyList<string> Names { get; } = ["linear", "maximal", "idleSpecific", "inflationSpecific", "actual", "elision"];

    /// <summary>The value of the curve named <paramref name="name"/> (one of <see cref="Names"/>).</summary>
    public double? Get(string name) => Pick<double?>(name, Linear, Maximal, IdleSpecific, InflationSpecific, Actual, Elision);

    /// <summary>The one of six values that belongs to the curve named <paramref name="name"/>, in the order of <see cref="Names"/>.</summary>
    internal static T Pick<T>(string name, T linear, T maximal, T idleSpecific, T inflationSpecific, T actual, T elision) => name switch
    {
        "linear" => linear,
        "maximal" => maximal,
        "idleSpecific" => idleSpecific,
        "inflationSpecific" => inflationSpecific,
        "actual" => actual,
        "elision" => elision,
        _ => throw new ArgumentException($"Unknown curve '{name}'; valid: {string.Join(", ", Names)}.", nameof(name)),
    };
}
