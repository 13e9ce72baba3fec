namespace DivCon.Simulation;

/// <summary>A whole simulated cyclic test of one workload on one machine size: what <c>simulate.json</c> holds per workload and core count.</summary>
/// <param name="Workload">The workload's name (for example <c>suite</c> or <c>subset</c>).</param>
/// <param name="Cores">Virtual cores.</param>
/// <param name="Seed">The seed of every random choice.</param>
/// <param name="DurationSeconds">Simulated length of each multiprogram phase.</param>
/// <param name="SpRuns">Isolated runs per program for C^SP.</param>
/// <param name="Repeat">Repetitions of the whole test.</param>
/// <param name="Isolated">The C^SP phase, per program.</param>
/// <param name="Schemes">Per scheme, in request order: the same metrics as a measured cyclic test.</param>
/// <param name="Comparisons">ANTT and STP of every pair of schemes, paired by seed, Holm-corrected.</param>
/// <param name="Counters">Per scheme, what happened inside the simulations, summed over the repetitions.</param>
public sealed record SimulationResult(
    string Workload,
    int Cores,
    ulong Seed,
    double DurationSeconds,
    int SpRuns,
    int Repeat,
    IReadOnlyList<IsolatedResult> Isolated,
    IReadOnlyList<SchemeResult> Schemes,
    IReadOnlyList<SchemeComparison> Comparisons,
    IReadOnlyDictionary<string, SimulationCounters> Counters)
{
    /// <summary>Where the partitioned schemes' scalabilities came from: <c>model</c> (the isolated runs) or <c>online</c> (the estimator).</summary>
    public string ScalabilitySource { get; init; } = "model";
}
