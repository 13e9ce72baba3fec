namespace DivCon.Simulation;

/// <summary>
/// The microbenchmark measurement behind a <see cref="MachineModel"/>: its parameters (M, L, G, R of seed 000 §4) and
/// its mean times alone on one worker and on all <paramref name="Cores"/>, seconds.
/// </summary>
/// <param name="Program">The program measured (the work-inflation microbenchmark's catalogue name).</param>
/// <param name="Parameters">Its M, L, G, R as text.</param>
/// <param name="Cores">P: the workers of the parallel runs (all the machine's cores).</param>
/// <param name="T1Seconds">T_1.</param>
/// <param name="TpSeconds">T_P.</param>
/// <param name="IpSeconds">I_P: the workers' idle time during a run.</param>
/// <param name="FpSeconds">F_P = P·T_P − I_P − T_1.</param>
public sealed record ContentionMeasurement(string Program, string Parameters, int Cores, double T1Seconds, double TpSeconds, double IpSeconds, double FpSeconds);
