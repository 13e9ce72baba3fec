namespace DivCon.Harness.Factored;

/// <summary>One parallel run: its wall time T_P and the total idle time I_P of its workers during it, seconds.</summary>
/// <param name="Seconds">Wall time of the run.</param>
/// <param name="IdleSeconds">Sum over the workers of the time they had no task during the run.</param>
public readonly record struct ParallelRunSample(double Seconds, double IdleSeconds);
