using DivCon.Metrics.Statistics;

namespace DivCon.Metrics;

/// <summary>
/// One scheme's outcome. Per program, NTT_i = mean C^MP_i / mean C^SP_i over the invocations (a ratio of means, each
/// invocation weighted once); <see cref="Antt"/> is their mean, <see cref="Mntt"/> their maximum and <see cref="Stp"/>
/// the sum of their reciprocals, over the invocations in which every program recorded a run, with percentile bootstrap
/// intervals over those invocations (two or more needed). <see cref="Repetitions"/> has each invocation's own values,
/// which the paired comparisons use.
/// </summary>
/// <param name="Scheme">The scheme's name.</param>
/// <param name="Description">What it is.</param>
/// <param name="Antt">Mean NTT; null when no invocation had a run of every program.</param>
/// <param name="Mntt">Max NTT.</param>
/// <param name="Stp">Σ 1/NTT.</param>
/// <param name="Programs">Per program.</param>
/// <param name="Repetitions">Per invocation (or simulated seed).</param>
/// <param name="Schedulers">What the scheme's schedulers reported (the last invocation's phase).</param>
/// <param name="Warnings">What to be careful about.</param>
public sealed record SchemeResult(
    string Scheme,
    string Description,
    BootstrapEstimate? Antt,
    BootstrapEstimate? Mntt,
    BootstrapEstimate? Stp,
    IReadOnlyList<ProgramResult> Programs,
    IReadOnlyList<RepetitionMetrics> Repetitions,
    IReadOnlyList<SchedulerStats> Schedulers,
    IReadOnlyList<string> Warnings);
