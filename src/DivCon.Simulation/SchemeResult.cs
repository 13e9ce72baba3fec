namespace DivCon.Simulation;

/// <summary>One scheme on one workload: the harness's per-scheme metrics.</summary>
/// <param name="Scheme">Its name.</param>
/// <param name="Programs">Per program, in workload order.</param>
/// <param name="Antt">Mean NTT, or null when some program recorded no run.</param>
/// <param name="Mntt">Max NTT, or null.</param>
/// <param name="Stp">Σ NP, or null.</param>
/// <param name="Counters">What happened inside the simulation.</param>
public sealed record SchemeResult(string Scheme, IReadOnlyList<ProgramResult> Programs, double? Antt, double? Mntt, double? Stp, SimulationCounters Counters);
