using DivCon.Metrics.Throttling;

namespace DivCon.Metrics.Factored;

/// <summary>One parallel run: its wall time T_P and the total idle time I_P of its workers during it, seconds.</summary>
/// <param name="Seconds">Wall time of the run.</param>
/// <param name="IdleSeconds">Sum over the workers of the time they had no task during the run.</param>
/// <param name="Steals">The run's steal counters and seed 002's split of I_P, when the source measured them; null otherwise.</param>
/// <param name="Throttling">What the cgroup's throttling counters counted during the run; null where there is no cgroup to read.</param>
public readonly record struct ParallelRunSample(double Seconds, double IdleSeconds, RunStealStatistics? Steals = null, ThrottlingSample? Throttling = null);
