using System.Diagnostics;
using DivCon.Harness.Cyclic;
using DivCon.Samples;
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

    /// <summary>Runs the experiment; <paramref name="progress"/> gets one line per program.</summary>
    /// <exception cref="ProgramRunException">A program failed, hung or computed a wrong result.</exception>
    public static async Task<GranularityResult> RunAsync(ExperimentSettings settings, int maxDepth, Action<string>? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(settings);
        settings.ThrowIfInvalid();
        ArgumentOutOfRangeException.ThrowIfNegative(maxDepth);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(maxDepth, MaxSupportedDepth);

        int cores = settings.Processors.Count;
        DateTimeOffset started = DateTimeOffset.UtcNow;
        long start = Stopwatch.GetTimestamp();
        var programs = new List<GranularityProgramResult>();
        using var scheduler = WorkStealingTaskScheduler.CreatePinned(settings.Processors, bestEffort: true);
        foreach (string name in settings.Programs)
        {
            IDivConSample program = SampleCatalog.Create(name, settings.Size, settings.Seed);
            program.Initialize();
            progress?.Invoke($"{program.Name}: sequential baseline, then granularity = size / 2^k for k = 0 … {maxDepth} on {cores} cores ...");
            var ts = new TimedSample(IsolatedTiming.Sequential(program, settings, cancellationToken));
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
                var time = new TimedSample(await IsolatedTiming.ParallelAsync(program, scheduler, settings, settings.Runs, cancellationToken));
                points.Add(new GranularityPoint(divisor, granularity, (double)divisor / cores, time));
            }

            programs.Add(new GranularityProgramResult(program.Name, program.ProblemSize, ts, points));
        }

        return new GranularityResult(settings, maxDepth, MachineInfo.Capture(), started, Stopwatch.GetElapsedTime(start).TotalSeconds, programs);
    }
}
