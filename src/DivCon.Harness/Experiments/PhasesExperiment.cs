using DivCon.Harness.Cyclic;
using DivCon.Harness.Programs;
using DivCon.Harness.Progress;
using DivCon.Scheduling;
using DivCon.Skeletons;

namespace DivCon.Harness.Experiments;

/// <summary>
/// Cumulative split / execute / merge time per recursion level (thesis §7.3, Figure 7.5): each program alone on a
/// work-stealing scheduler pinned to the settings' processors, with the automatic granularity for that many cores,
/// warm-up runs unprofiled, then <see cref="ExperimentSettings.Runs"/> runs with a <see cref="PhaseProfiler"/>.
/// </summary>
public static class PhasesExperiment
{
    /// <summary>Runs the experiment on the skeleton programs of <paramref name="programs"/> the settings name.</summary>
    /// <exception cref="ProgramRunException">A program failed, hung or computed a wrong result.</exception>
    public static async Task<PhasesResult> RunAsync(
        ExperimentSettings settings, ProgramCatalog programs, int musclesPerCore, IRunProgress progress, CancellationToken cancellationToken)
    {
        IsolatedTiming.ThrowIfInvalid(settings, programs, progress);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(musclesPerCore);

        int cores = settings.Processors.Count;
        using var scheduler = IsolatedTiming.Pinned(settings.Processors, settings.Budget);
        var run = await IsolatedTiming.EachProgramAsync(settings, programs, async program =>
        {
            program.UseAutomaticGranularity(cores, musclesPerCore);
            progress.Phase($"{program.Name}: profiled runs", 1);
            progress.Line($"{program.Name}: {settings.Runs} profiled runs on {cores} cores (granularity {program.Granularity}) ...");

            // Warm-up unprofiled, then only the recorded runs are profiled.
            if (settings.Warmup > 0)
            {
                await IsolatedTiming.ParallelAsync(program, scheduler, settings with { Runs = 1, Warmup = settings.Warmup - 1 }, cancellationToken);
            }

            var profiler = new PhaseProfiler();
            program.Profiler = profiler;
            double[] wall = await IsolatedTiming.ParallelAsync(program, scheduler, settings with { Warmup = 0 }, cancellationToken);
            program.Profiler = null;
            double runs = settings.Runs;
            PhaseLevel[] levels = profiler.Snapshot().Select(l => new PhaseLevel(
                l.Level,
                l.SplitCount / runs, l.SplitTime.TotalSeconds / runs,
                l.ExecuteCount / runs, l.ExecuteTime.TotalSeconds / runs,
                l.MergeCount / runs, l.MergeTime.TotalSeconds / runs)).ToArray();
            progress.Advance(1, $"{program.Name}: {levels.Length} levels, {wall.Average():0.000} s per run");
            return new PhaseProgramResult(program.Name, program.ProblemSize, program.Granularity, program.BranchingFactor, new TimedSample(wall), levels);
        });

        return new PhasesResult(settings, musclesPerCore, run.Programs) { StartedUtc = run.StartedUtc, ElapsedSeconds = run.ElapsedSeconds, Machine = run.Machine };
    }
}
