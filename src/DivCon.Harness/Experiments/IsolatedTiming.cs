using System.Diagnostics;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Programs;
using DivCon.Harness.Progress;
using DivCon.Metrics.Results;
using DivCon.Scheduling;

namespace DivCon.Harness.Experiments;

/// <summary>
/// Times runs of one program alone: the sequential baseline on the calling thread, or parallel runs on a given
/// scheduler. Each parallel run is bounded by the settings' run timeout (a hang fails the experiment, it never blocks
/// it), and the last parallel result is verified against the baseline, so a wrong program cannot produce a number.
/// </summary>
internal static class IsolatedTiming
{
    /// <summary>
    /// The checks every isolated experiment makes first: no null argument, at least one recorded run, no negative
    /// warm-up (the command checks every setting for the user; the processors are checked where they are pinned).
    /// </summary>
    public static void ThrowIfInvalid(ExperimentSettings settings, ProgramCatalog programs, IRunProgress progress)
    {
        ArgumentNullException.ThrowIfNull(settings);
        ArgumentNullException.ThrowIfNull(programs);
        ArgumentNullException.ThrowIfNull(progress);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(settings.Runs);
        ArgumentOutOfRangeException.ThrowIfNegative(settings.Warmup);
    }

    /// <summary>
    /// The frame of an isolated experiment: makes each program the settings name, in order (for their size and seed), makes
    /// its input, hands it to <paramref name="measure"/>, and returns the results with when the experiment started, how
    /// long it took and the machine it ran on.
    /// </summary>
    /// <exception cref="ArgumentException">The catalogue has no skeleton program of a name.</exception>
    public static async Task<(List<T> Programs, DateTimeOffset StartedUtc, double ElapsedSeconds, MachineInfo Machine)> EachProgramAsync<T>(
        ExperimentSettings settings, ProgramCatalog programs, Func<ISkeletonProgram, Task<T>> measure)
    {
        DateTimeOffset started = DateTimeOffset.UtcNow;
        long start = Stopwatch.GetTimestamp();
        var results = new List<T>();
        foreach (string name in settings.Programs)
        {
            var program = programs.Find(name)?.Create(settings.Size, settings.Seed) as ISkeletonProgram
                ?? throw new ArgumentException($"'{name}' is not a divide-and-conquer program of the catalogue ({programs.Names}).", nameof(settings));
            program.Initialize();
            results.Add(await measure(program));
        }

        return (results, started, Stopwatch.GetElapsedTime(start).TotalSeconds, MachineInfo.Capture(settings.Budget));
    }

    /// <summary>A work-stealing scheduler with one worker pinned to each of <paramref name="processors"/> (best effort), sized against <paramref name="budget"/>.</summary>
    public static WorkStealingTaskScheduler Pinned(IReadOnlyList<int> processors, CpuBudget? budget) => new(new WorkStealingSchedulerOptions
    {
        Processors = processors,
        BestEffortPinning = true,
        Budget = budget,
        CompensateBlocking = false, // a measurement: exactly these workers, never a compensating one
    });

    public static Task<double[]> SequentialAsync(ISkeletonProgram program, ExperimentSettings settings, CancellationToken cancellationToken) =>
        TimeAsync(settings, () =>
        {
            cancellationToken.ThrowIfCancellationRequested();
            long start = Stopwatch.GetTimestamp();
            program.RunSequential();
            return Task.FromResult(Stopwatch.GetElapsedTime(start).TotalSeconds);
        });

    public static async Task<double[]> ParallelAsync(
        ISkeletonProgram program, TaskScheduler scheduler, ExperimentSettings settings, CancellationToken cancellationToken)
    {
        var run = new PhaseProgram(program.Name, ct => program.RunAsync(scheduler, ct));
        double[] seconds = await TimeAsync(settings,
            async () => (await CyclicProtocol.RunIsolatedAsync(run, 1, TimeProvider.System, settings.RunTimeout, cancellationToken))[0]);
        try
        {
            program.Verify();
        }
        catch (InvalidOperationException e)
        {
            throw new ProgramRunException(program.Name, e.Message, e);
        }

        return seconds;
    }

    /// <summary>The settings' warm-up runs of <paramref name="once"/> (each returns its time), then its recorded runs, each after a full GC.</summary>
    private static async Task<double[]> TimeAsync(ExperimentSettings settings, Func<Task<double>> once)
    {
        for (int i = 0; i < settings.Warmup; i++)
        {
            await once();
        }

        var seconds = new double[settings.Runs];
        for (int i = 0; i < seconds.Length; i++)
        {
            CyclicExperiment.CollectGarbage();
            seconds[i] = await once();
        }

        return seconds;
    }
}
