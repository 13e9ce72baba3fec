namespace DivCon.Simulation;

/// <summary>One scheme on one workload: the harness's per-scheme metrics.</summary>
/// <param name="Scheme">Its name.</param>
/// <param name="Programs">Per program, in workload order; runs pooled over the repetitions.</param>
/// <param name="Antt">Mean over the repetitions of ANTT, or null when some program recorded no run in some repetition.</param>
/// <param name="Mntt">Mean over the repetitions of MNTT, or null.</param>
/// <param name="Stp">Mean over the repetitions of STP, or null.</param>
/// <param name="Repetitions">Each repetition's NTTs, ANTT, MNTT and STP (the scheme-level intervals come from these).</param>
/// <param name="Counters">What happened inside the simulations, summed over the repetitions.</param>
public sealed record SchemeResult(
    string Scheme,
    IReadOnlyList<ProgramResult> Programs,
    double? Antt,
    double? Mntt,
    double? Stp,
    IReadOnlyList<SimulatedRepetition> Repetitions,
    SimulationCounters Counters);
