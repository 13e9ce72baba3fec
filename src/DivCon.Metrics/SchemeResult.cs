using DivCon.Metrics.Statistics;

namespace DivCon.Metrics;

/// <summary>
/// One scheme's outcome. <see cref="Antt"/>, <see cref="Mntt"/> and <see cref="Stp"/> summarize the per-repetition
/// values (<see cref="Repetitions"/>): their interval needs at least two repetitions. <see cref="Programs"/> pools the
/// runs of every repetition per program.
/// </summary>
public sealed record SchemeResult(
    string Scheme,
    string Description,
    Estimate? Antt,
    Estimate? Mntt,
    Estimate? Stp,
    IReadOnlyList<ProgramResult> Programs,
    IReadOnlyList<RepetitionMetrics> Repetitions,
    IReadOnlyList<SchedulerStats> Schedulers,
    IReadOnlyList<string> Warnings);
