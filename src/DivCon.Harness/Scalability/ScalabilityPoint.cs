namespace DivCon.Harness.Scalability;

/// <summary>A program's mean parallel time on a number of cores and the speedup it gives.</summary>
/// <param name="Cores">Workers of the scheduler the parallel runs used.</param>
/// <param name="ParallelSeconds">Mean wall time of the parallel runs (T_P).</param>
/// <param name="Speedup">T_s / T_P, a ratio of means.</param>
public sealed record ScalabilityPoint(int Cores, double ParallelSeconds, double Speedup);
