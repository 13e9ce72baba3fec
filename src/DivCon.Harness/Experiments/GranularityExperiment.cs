using DivCon.Harness.Cyclic;
using DivCon.Harness.Programs;
using DivCon.Harness.Progress;
using DivCon.Scheduling;

namespace DivCon.Harness.Experiments;

/// <summary>
/// Time vs granularity (thesis §7.1, Figures 7.1–7.2): each program alone on a work-stealing scheduler pinned to all
/// the settings' processors, starting with granularity = problem size and halving it at each step down to
/// problem size / 2^<c>maxDepth</c> (steps that give the same granularity are measured once).
/// </summary>
public static class GranularityExperiment
{
    /// <summary>The deepest ratio supported: 1/2^30.</summary>
    public const int MaxSupportedDepth = 30;

    /// <summary>Runs the experiment on the skeleton programs of <paramref name="programs"/> the settings name.</summary>
    /// <exception cref="ProgramRunException">A program failed, hung or computed a wrong result.</exception>
    public static async Task<GranularityResult> RunAsync(
        ExperimentSettings settings, ProgramCatalog programs, int maxDepth, IRunProgress progress, CancellationToken cancellationToken)
    {
        IsolatedTiming.ThrowIfInvalid(settings, programs, progress);
        ArgumentOutOfRangeException.ThrowIfNegative(maxDepth);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(maxDepth, MaxSupportedDepth);

        int cores = settings.Processors.Count;
        using var scheduler = IsolatedTiming.Pinned(settings.Processors, settings.Budget);
        var run = await IsolatedTiming.EachProgramAsync(settings, programs, async program =>
        {
            progress.Phase($"{program.Name}: granularity size / 2^k, k = 0 … {maxDepth}", maxDepth + 2);
            progress.Line($"{program.Name}: sequential baseline, then granularity = size / 2^k for k = 0 … {maxDepth} on {cores} cores ...");
            var ts = new TimedSample(await IsolatedTiming.SequentialAsync(program, settings, cancellationToken));
            var points = new List<GranularityPoint>();
            long previous = -1;
            for (int k = 0; k <= maxDepth; k++)
            {
                long divisor = 1L << k;
                long granularity = Math.Max(1, (program.ProblemSize + divisor - 1) / divisor);
                if (granularity == previous)
                {
                    continue;
                }

                previous = granularity;
                program.Granularity = granularity;
                var time = new TimedSample(await IsolatedTiming.ParallelAsync(program, scheduler, settings, cancellationToken));
                points.Add(new GranularityPoint(divisor, granularity, (double)divisor / cores, time));
                progress.Advance(k + 2, $"{program.Name}: size / {divisor}: {time.Mean:0.0000} s");
            }

            return new GranularityProgramResult(program.Name, program.ProblemSize, ts, points);
        });

        return new GranularityResult(settings, maxDepth, run.Programs) { StartedUtc = run.StartedUtc, ElapsedSeconds = run.ElapsedSeconds, Machine = run.Machine };
    }
}
