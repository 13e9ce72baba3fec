using System.Collections.Concurrent;
using DivCon.Harness.Plots;
using DivCon.Metrics.Schemes;
using DivCon.Scheduling;

namespace DivCon.Harness.Schemes;

/// <summary>
/// Every scheme of the <see cref="SchemeCatalog"/> wired to the real schedulers: the standalone
/// <see cref="WorkStealingTaskScheduler"/> (<see cref="WorkStealing"/>) for the oversubscribed and shared schemes, the thread pool for
/// tpl-default, and <see cref="MultiProgramPool"/> (the <c>MultiProgramScheduler</c> with the scheme's policy) for the
/// partitioned ones. <see cref="Wire"/> takes the scheduler and pool factories, so tests can build the same
/// arrangements over recording fakes.
/// </summary>
public static class BuiltInSchemes
{
    /// <summary>Every scheme of the catalogue, in report order, over the real schedulers.</summary>
    /// <param name="timelines">
    /// Where the MultiProgramScheduler schemes leave their allocation timelines when a phase ends (for the allocation
    /// plots and Chrome traces beside the results), or null.
    /// </param>
    public static SchemeRegistry CreateRegistry(ConcurrentQueue<SchemeTimeline>? timelines = null) =>
        new(SchemeCatalog.All.Select(info => Wire(info, WorkStealing, context => new MultiProgramPool(
            context.Processors, info, SchemeCatalog.RepartitionInterval, timelines, context.Budget))));

    /// <summary><paramref name="info"/> built over <paramref name="workStealing"/> schedulers or <paramref name="createPool"/> pools.</summary>
    public static SchemeDescriptor Wire(SchemeInfo info, Func<SchedulerRequest, SchedulerArrangement> workStealing, Func<SchemeContext, IMultiprogramPool> createPool)
    {
        ArgumentNullException.ThrowIfNull(info);
        ArgumentNullException.ThrowIfNull(workStealing);
        ArgumentNullException.ThrowIfNull(createPool);
        return new SchemeDescriptor(info, info.Arrangement switch
        {
            SchemeArrangement.OversubscribedFree => context => Separate(context, pinned: false, workStealing),
            SchemeArrangement.OversubscribedPinned => context => Separate(context, pinned: true, workStealing),
            SchemeArrangement.Shared => context => Shared(context, workStealing),
            SchemeArrangement.ThreadPool => Default,
            SchemeArrangement.Partitioned => context => Partitioned(context, createPool),
            _ => throw new ArgumentOutOfRangeException(nameof(info), info.Arrangement, "Unknown arrangement."),
        });
    }

    /// <summary>
    /// Partitioned multiprogramming (§5.3): one MultiProgramScheduler pool over the processors; each program registers
    /// with its scalability (none when estimated online) and gets its own TaskScheduler; the pool's policy divides the
    /// cores (fixed shares, or repartitioned by task availability, or any further policy).
    /// </summary>
    internal static SchedulerArrangement Partitioned(SchemeContext context, Func<SchemeContext, IMultiprogramPool> createPool)
    {
        IMultiprogramPool pool = createPool(context);
        try
        {
            TaskScheduler[] schedulers = context.Programs
                .Select(p => pool.AddProgram(p.Name, context.OnlineScalability ? null : p.Scalability)) // SchemeDescriptor.Create checked they have one
                .ToArray();
            return new SchedulerArrangement(schedulers, () => [.. schedulers.Select((_, i) => pool.StatsFor(i))], pool.Dispose, pool.OnRunStopping);
        }
        catch
        {
            pool.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Oversubscribed multiprogramming (§5.2.1–5.2.2): one standalone work-stealing scheduler per program, each with a
    /// worker per processor, free or pinned; n programs put n threads on every core.
    /// </summary>
    private static SchedulerArrangement Separate(SchemeContext context, bool pinned, Func<SchedulerRequest, SchedulerArrangement> create)
    {
        var made = new List<SchedulerArrangement>(context.Programs.Count);
        try
        {
            foreach ((string name, _) in context.Programs)
            {
                made.Add(create(new SchedulerRequest(name, context.Processors.Count, pinned ? context.Processors : null, context.Budget)));
            }
        }
        catch
        {
            // Do not leak the worker threads of the schedulers already made.
            made.ForEach(a => a.Dispose());
            throw;
        }

        return new SchedulerArrangement(
            made.Select(a => a.SchedulerFor(0)).ToArray(), () => made.Select(a => a.Snapshot()[0]).ToArray(), () => made.ForEach(a => a.Dispose()));
    }

    /// <summary>
    /// Shared-scheduler multiprogramming (§5.2.3): one work-stealing scheduler with a worker pinned to each processor;
    /// every program inserts its tasks into the same global queue.
    /// </summary>
    private static SchedulerArrangement Shared(SchemeContext context, Func<SchedulerRequest, SchedulerArrangement> create)
    {
        SchedulerArrangement shared = create(new SchedulerRequest("shared", context.Processors.Count, context.Processors, context.Budget));
        return Everyone(context, shared.SchedulerFor(0), () => shared.Snapshot()[0], shared.Dispose);
    }

    /// <summary>
    /// Default-scheduler multiprogramming (§5.2.4): every program issues its tasks to <see cref="TaskScheduler.Default"/>,
    /// the .NET thread pool, which is shared, unpinned, and injects threads as it sees fit. Nothing to create or
    /// dispose; the pool's thread count changes with injection and is reported as-is, not as a fixed worker count.
    /// </summary>
    private static SchedulerArrangement Default(SchemeContext context) => Everyone(context, TaskScheduler.Default, () => new SchedulerStats(
        "ThreadPoolTaskScheduler", TaskScheduler.Default.Id, ThreadPool.ThreadCount, Pinned: false, TasksExecuted: ThreadPool.CompletedWorkItemCount), static () => { });

    // Every program on one scheduler, each reporting what it reports.
    private static SchedulerArrangement Everyone(SchemeContext context, TaskScheduler scheduler, Func<SchedulerStats> stats, Action dispose) =>
        new(Enumerable.Repeat(scheduler, context.Programs.Count).ToArray(), () => Enumerable.Repeat(stats(), context.Programs.Count).ToArray(), dispose);

    /// <summary>
    /// The standalone work-stealing scheduler as the schemes ask for it: that many free workers, or one worker pinned to
    /// each requested processor (strict: where pinning is impossible the scheme fails to build, it never runs unpinned
    /// under a pinned scheme's name). Its statistics window starts when it is made, so a snapshot covers the phase it
    /// served; disposing the arrangement shuts it down.
    /// </summary>
    /// <exception cref="ArgumentException">Processors that are empty, repeated or outside the process's affinity mask.</exception>
    /// <exception cref="PlatformNotSupportedException">Pinning was requested and is impossible here.</exception>
    internal static SchedulerArrangement WorkStealing(SchedulerRequest request)
    {
        var scheduler = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions
        {
            WorkerCount = request.PinTo is null ? request.Workers : null,
            Processors = request.PinTo,
            Budget = request.Budget,
            ThreadName = $"ws {request.Label}",
            CompensateBlocking = false,
        });
        return new SchedulerArrangement([scheduler], () => [Stats(scheduler)], scheduler.Dispose);
    }

    private static SchedulerStats Stats(WorkStealingTaskScheduler scheduler)
    {
        SchedulerStatistics s = scheduler.GetStatistics();
        return new SchedulerStats(
            nameof(WorkStealingTaskScheduler),
            scheduler.Id,
            scheduler.WorkerCount,
            scheduler.IsPinned,
            scheduler.IsPinned ? scheduler.PinnedProcessors : null,
            IdleSeconds: s.IdleTime.TotalSeconds,
            TasksExecuted: s.TasksExecuted,
            Steals: s.Steals,
            BusySeconds: s.BusyTime.TotalSeconds);
    }
}
