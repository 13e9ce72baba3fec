using System.Diagnostics;
using System.Runtime.InteropServices;
using DivCon.Harness.Programs;
using DivCon.Harness.Throttling;
using DivCon.Metrics.Throttling;
using DivCon.Scheduling;

namespace DivCon.Harness.Factored;

/// <summary>
/// The real <see cref="IFactoredMeasurementSource"/>: wall times from <see cref="Stopwatch"/>; parallel runs on a
/// <see cref="WorkStealingTaskScheduler"/> with the requested number of unpinned workers (one scheduler per worker
/// count, made on first use and reused, so thread start-up is never timed), stealing as <see cref="Stealing"/> says;
/// I_P from the scheduler's idle counters, and each run's steal counts and overhead/waiting split with it.
/// Before each timed run a full blocking GC, so one run's garbage is not collected inside the next. Around each timed
/// run (inside the GC, at the stopwatch) the cgroup's throttling counters are read (<see cref="ThrottlingWindow"/>), so
/// time lost to a CPU quota is reported apart from the program's (<see cref="ParallelRunSample.Throttling"/>, and
/// beside the time of a sequential or elision run).
/// </summary>
/// <remarks>
/// I_P: the statistics window opens (<see cref="WorkStealingTaskScheduler.ResetStatistics"/>) just before the run
/// starts and closes (<see cref="WorkStealingTaskScheduler.GetStatistics"/>) just after it is seen to end, so it is
/// slightly longer than the run. Outside the run no task of it exists and every worker is idle, so the idle time of
/// the run is the window's idle time minus P·(window − T_P). Each worker's busy + idle equals the window
/// (the scheduler's instrumentation), so this equals P·T_P − busy.
/// </remarks>
public sealed class SchedulerMeasurementSource : IFactoredMeasurementSource, IDisposable
{
    private readonly Dictionary<int, WorkStealingTaskScheduler> _schedulers = [];
    private readonly TimeSpan _runTimeout;
    private readonly Func<CpuThrottling?> _readThrottling;
    private CpuTopology? _topology;
    private bool _disposed;

    /// <summary>
    /// Creates the source; a run longer than <paramref name="runTimeout"/> (default 10 minutes) fails the measurement.
    /// The schedulers steal as <paramref name="stealing"/> says (default <see cref="FactoredStealing.Default"/>) and
    /// are sized against <paramref name="budget"/> (the experiment's one reading; detected here when null), whose
    /// throttling counters are read around every timed run (<paramref name="readThrottling"/> replaces the reading,
    /// for tests).
    /// </summary>
    public SchedulerMeasurementSource(TimeSpan? runTimeout = null, FactoredStealing? stealing = null, CpuBudget? budget = null, Func<CpuThrottling?>? readThrottling = null)
    {
        _runTimeout = runTimeout ?? TimeSpan.FromMinutes(10);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(_runTimeout, TimeSpan.Zero);
        Stealing = stealing ?? FactoredStealing.Default;
        Budget = budget ?? CpuBudget.Detect();
        _readThrottling = readThrottling ?? Budget.ReadThrottling;
    }

    /// <summary>How the schedulers steal.</summary>
    public FactoredStealing Stealing { get; }

    /// <summary>The CPU budget every scheduler of this source is sized against.</summary>
    public CpuBudget Budget { get; }

    /// <summary>The statistics window of the last parallel or elision run (for checks of the instrumentation).</summary>
    public SchedulerStatistics? LastStatistics { get; private set; }

    /// <inheritdoc/>
    public (double Seconds, ThrottlingSample? Throttling) MeasureSequential(IWorkloadProgram program, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(program);
        ObjectDisposedException.ThrowIf(_disposed, this);
        cancellationToken.ThrowIfCancellationRequested();
        CollectGarbage();
        var closeThrottling = ThrottlingWindow.Open(_readThrottling);
        long start = Stopwatch.GetTimestamp();
        program.RunSequential();
        double seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
        return (seconds, closeThrottling());
    }

    /// <inheritdoc/>
    public ParallelRunSample MeasureParallel(IWorkloadProgram program, int workers, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(program);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(workers);
        return Timed(program.Name, workers, s => program.RunAsync(s, cancellationToken), cancellationToken);
    }

    /// <inheritdoc/>
    public (double Seconds, ThrottlingSample? Throttling) MeasureElision(ISkeletonProgram program, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(program);
        long granularity = program.Granularity;
        program.UseSequentialElision();
        try
        {
            ParallelRunSample run = Timed(program.Name, 1, s => program.RunAsync(s, cancellationToken), cancellationToken);
            return (run.Seconds, run.Throttling);
        }
        finally
        {
            program.Granularity = granularity;
        }
    }

    /// <summary>Disposes the schedulers (after their remaining tasks); a second call finds none left.</summary>
    public void Dispose()
    {
        _disposed = true;
        foreach (WorkStealingTaskScheduler s in _schedulers.Values)
        {
            s.Dispose();
        }

        _schedulers.Clear();
    }

    /// <summary>I_P of a run of <paramref name="runSeconds"/> inside a window of <paramref name="windowSeconds"/> with <paramref name="windowIdleSeconds"/> idle over <paramref name="workers"/> workers, clamped to [0, P·T_P].</summary>
    public static double RunIdleSeconds(int workers, double runSeconds, double windowSeconds, double windowIdleSeconds)
    {
        double outside = workers * Math.Max(0, windowSeconds - runSeconds);
        return Math.Clamp(windowIdleSeconds - outside, 0, workers * runSeconds);
    }

    private ParallelRunSample Timed(string name, int workers, Func<TaskScheduler, Task> run, CancellationToken cancellationToken)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        cancellationToken.ThrowIfCancellationRequested();
        ref WorkStealingTaskScheduler? scheduler = ref CollectionsMarshal.GetValueRefOrAddDefault(_schedulers, workers, out _);
        scheduler ??= new WorkStealingTaskScheduler(Stealing.Options(workers, $"DivCon factored P={workers}", () => _topology ??= CpuTopology.Detect(), Budget));

        CollectGarbage();
        scheduler.ResetStatistics();
        var closeThrottling = ThrottlingWindow.Open(_readThrottling);
        long start = Stopwatch.GetTimestamp();
        Task task = run(scheduler);
        bool finished;
        try
        {
            finished = task.Wait(_runTimeout, cancellationToken);
        }
        catch (AggregateException e) when (e.InnerExceptions.Count == 1)
        {
            throw new InvalidOperationException($"{name}: a run on {workers} worker(s) failed: {e.InnerException!.Message}", e.InnerException);
        }

        double seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
        ThrottlingSample? throttled = closeThrottling();
        SchedulerStatistics statistics = scheduler.GetStatistics();
        if (!finished)
        {
            throw new TimeoutException($"{name}: a run on {workers} worker(s) took longer than {_runTimeout.TotalSeconds:0} s.");
        }

        LastStatistics = statistics;
        double idle = RunIdleSeconds(workers, seconds, statistics.Elapsed.TotalSeconds, statistics.IdleTime.TotalSeconds);
        return new ParallelRunSample(seconds, idle, RunSteals(statistics, idle), throttled);
    }

    /// <summary>
    /// The steal statistics of a run whose I_P is <paramref name="runIdleSeconds"/>: the window's counters, and I_P split
    /// into the window's scheduling overhead (successful sweeps happen only while the run has tasks; clamped to I_P) and
    /// the rest as waiting, so the two add up to I_P.
    /// </summary>
    public static RunStealStatistics RunSteals(SchedulerStatistics statistics, double runIdleSeconds)
    {
        ArgumentNullException.ThrowIfNull(statistics);
        double overhead = Math.Clamp(statistics.SchedulingOverhead.TotalSeconds, 0, Math.Max(0, runIdleSeconds));
        return new RunStealStatistics(statistics.Steals, statistics.LocalSteals, statistics.RemoteSteals, overhead, Math.Max(0, runIdleSeconds - overhead));
    }

    private static void CollectGarbage()
    {
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
        GC.WaitForPendingFinalizers();
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
    }
}
