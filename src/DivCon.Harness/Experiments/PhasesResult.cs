using DivCon.Metrics.Results;

namespace DivCon.Harness.Experiments;

/// <summary>
/// The result of <see cref="PhasesExperiment"/> (thesis Figure 7.5), the record <c>phases.json</c> holds. Counts and
/// seconds are per run: totals over the profiled runs divided by their number; seconds are cumulative over the tasks
/// of the level (time inside the muscle, measured by the skeleton's PhaseProfiler).
/// </summary>
/// <param name="Settings">Programs, size, runs, processors (cores = their number).</param>
/// <param name="MusclesPerCore">The automatic granularity's target execute muscles per core.</param>
/// <param name="Programs">One per program, in the order asked for.</param>
public sealed record PhasesResult(ExperimentSettings Settings, int MusclesPerCore, IReadOnlyList<PhaseProgramResult> Programs) : ExperimentFile(FileKind)
{
    /// <summary>The file kind and base name.</summary>
    public const string FileKind = "phases";
}
