namespace DivCon.Metrics.Factored;

/// <summary>
/// What a multiprogram scheme with per-program accounting (the MultiProgramScheduler's partitioned schemes) reports
/// for one program so that <see cref="MultiprogramFactored.Compute"/> can decompose its runs (docs/DESIGN.md §8): over
/// one measured interval of <see cref="IntervalSeconds"/> wall time, the core-time the program held (Σ over workers
/// of the time each was assigned to it) and the part of it those workers spent idle; the program's mean run time
/// in that interval; and its isolated T_s, T_1 and T_elision.
/// </summary>
/// <param name="Program">The program's name.</param>
/// <param name="IntervalSeconds">Wall length of the interval the two totals cover (the multiprogram phase).</param>
/// <param name="CoreSecondsHeld">Σ over workers of the time assigned to this program in the interval.</param>
/// <param name="IdleSeconds">The part of <see cref="CoreSecondsHeld"/> its workers spent without one of its tasks.</param>
/// <param name="MeanRunSeconds">C^MP: mean time of its recorded runs in the interval; null when none was recorded.</param>
/// <param name="SequentialSeconds">Mean T_s; null when not measured.</param>
/// <param name="OneWorkerSeconds">Mean T_1 (the parallel program on a 1-worker scheduler); null when not measured.</param>
/// <param name="ElisionSeconds">Mean T_elision; null when not measured or the program has none.</param>
public sealed record ProgramCoreAccounting(
    string Program,
    double IntervalSeconds,
    double CoreSecondsHeld,
    double IdleSeconds,
    double? MeanRunSeconds,
    double? SequentialSeconds,
    double? OneWorkerSeconds,
    double? ElisionSeconds);
