using DivCon.Metrics.Throttling;

namespace DivCon.Metrics.Factored;

/// <summary>
/// One core count of a factored decomposition, from mean times in seconds: T_P, I_P, the derived
/// W_P = P·T_P − I_P (parallel work) and F_P = P·T_P − I_P − T_1 (work inflation), and the speedup curves.
/// By construction P·T_P = T_1 + I_P + F_P (Fact 2.4). Where the runs were throttled by a cgroup CPU quota, the
/// throttled core-time Θ_P is its own term, taken out of the leftover (<see cref="FactoredAnalysis.Point"/>):
/// W_P = P·T_P − I_P − Θ_P and F_P = W_P − (T_1 − Θ_1), so P·T_P = (T_1 − Θ_1) + I_P + Θ_P + F_P.
/// </summary>
/// <param name="P">Workers (or, in a multiprogram run, the mean cores held).</param>
/// <param name="Tp">Mean parallel time T_P, seconds.</param>
/// <param name="Ip">Mean total idle time I_P of the workers during a run, seconds.</param>
/// <param name="Wp">W_P = P·T_P − I_P (− Θ_P where throttled), seconds.</param>
/// <param name="Fp">
/// F_P = P·T_P − I_P − T_1 (− Θ_P + Θ_1 where throttled), seconds: the leftover of the identity, not measured by itself,
/// so it carries every error of T_P, I_P and T_1 (a negative F_P is such a bias, for example T_1 measured slow or I_P
/// counted high, not less work).
/// </param>
/// <param name="Speedups">The six curves at this P.</param>
/// <param name="Steals">
/// Means over the runs of the steal counters and of I_P's split into scheduling overhead and waiting (issue 10), when
/// every run at this P measured them; null otherwise (and always for a multiprogram point).
/// </param>
/// <param name="Throttling">
/// The cgroup throttling of the runs at this P (Θ_P is its mean throttled seconds), when every run measured it; null
/// otherwise (no cgroup, and always for a multiprogram point).
/// </param>
public sealed record FactoredPoint(double P, double Tp, double Ip, double Wp, double Fp, FactoredSpeedups Speedups, RunStealStatistics? Steals = null,
    ThrottlingSummary? Throttling = null)
{
    /// <summary>
    /// Bootstrap intervals over the measurement's rounds (<see cref="FactoredAnalysis.Analyze"/>), or over a cyclic
    /// test's invocations for a multiprogram point; null when there are none (one round or invocation, samples of
    /// unequal counts).
    /// </summary>
    public FactoredIntervals? Ci99 { get; init; }
}
