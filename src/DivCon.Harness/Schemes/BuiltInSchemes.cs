using DivCon.Harness.Plots;
using DivCon.Multiprogramming;
using DivCon.Partitioning;

namespace DivCon.Harness.Schemes;

/// <summary>
/// The schemes of issue 6 / thesis §5.2–5.3 and the further policies of issue 5, each wired to the real schedulers:
/// <see cref="WorkStealingSchedulers"/> (the standalone <c>WorkStealingTaskScheduler</c>) for the oversubscribed and
/// shared schemes, <see cref="MultiProgramPool"/> (the <c>MultiProgramScheduler</c> with a partitioning policy) for
/// the partitioned ones. The factory methods taking a scheduler or pool factory build the same arrangements over
/// other types (tests pass recording fakes).
/// </summary>
public static class BuiltInSchemes
{
    /// <summary>Scheme names, in report order.</summary>
    public const string OversubscribedFreeName = "oversubscribed-free",
        OversubscribedPinnedName = "oversubscribed-pinned",
        SharedName = "shared",
        TplDefaultName = "tpl-default",
        StaticPartitionedName = "static-partitioned",
        DynamicPartitionedName = "dynamic-partitioned",
        EqualSharesName = "equal-shares",
        HillClimbingName = "hill-climbing",
        IdleLendingName = "idle-lending";

    /// <summary>The repartitioning interval of the dynamic schemes (thesis §5.3.4).</summary>
    public static readonly TimeSpan DynamicInterval = MultiProgramSchedulerOptions.DefaultRepartitionInterval;

    private const string OversubscribedFreeText =
        "One work-stealing scheduler per program, each with a free (unpinned) worker per core: cores oversubscribed n-fold, the OS migrates threads.";

    private const string OversubscribedPinnedText =
        "One work-stealing scheduler per program, each with a worker pinned to every core: n threads per core, no migration.";

    private const string SharedText =
        "One work-stealing scheduler with a worker pinned to each core, shared by all programs (one global queue).";

    private const string TplDefaultText =
        "Every program on TaskScheduler.Default (the .NET thread pool): shared, unpinned, injects threads as it sees fit.";

    private const string StaticText =
        "MultiProgramScheduler: one pinned pool; each program holds a fixed share of the cores proportional to its scalability (decided on arrival; re-evaluated every 100 ms only so that, with fewer cores than programs, the cores rotate among them, a no-op otherwise).";

    private const string DynamicText =
        "MultiProgramScheduler: scalability shares, repartitioned every 100 ms by task availability (Figure 5.20).";

    private const string EqualSharesText =
        "MultiProgramScheduler: equal shares of the cores whatever the scalability, re-evaluated every 100 ms (the remainder goes to the programs with the most available tasks).";

    private const string HillClimbingText =
        "MultiProgramScheduler: static shares found by hill climbing on predicted ANTT from each program's scalability (SBMP-style, §8.2; Amdahl fit of the one measured speedup); re-evaluated every 100 ms only so that the cores rotate when there are fewer cores than programs.";

    private const string IdleLendingText =
        "MultiProgramScheduler: task-availability repartitioning every 100 ms, and a worker whose program has no task serves the program with queued tasks that the idle-lending rule picks, until that program runs dry or the next tick.";

    private const SchemeStatistics WorkStealingStats =
        SchemeStatistics.WorkerCounts | SchemeStatistics.Pinning | SchemeStatistics.IdleTime | SchemeStatistics.Steals;

    private const SchemeStatistics PoolStats =
        WorkStealingStats | SchemeStatistics.CoreTimePerProgram | SchemeStatistics.AllocationTimeline;

    /// <summary>TPL default (§5.2.4): runnable with the BCL alone.</summary>
    public static SchemeDescriptor TplDefault { get; } = new(TplDefaultName, TplDefaultText, "§5.2.4", SchemeStatistics.None,
        requiresScalability: false, context => new TplDefaultArrangement(context));

    /// <summary>Oversubscribed free (§5.2.1) over a standalone work-stealing scheduler factory.</summary>
    public static SchemeDescriptor OversubscribedFree(Func<SchedulerRequest, SchedulerHandle> workStealing) =>
        new(OversubscribedFreeName, OversubscribedFreeText, "§5.2.1", WorkStealingStats & ~SchemeStatistics.Pinning, false,
            context => new SeparateSchedulersArrangement(context, pinned: false, workStealing));

    /// <summary>Oversubscribed pinned (§5.2.2) over a standalone work-stealing scheduler factory.</summary>
    public static SchemeDescriptor OversubscribedPinned(Func<SchedulerRequest, SchedulerHandle> workStealing) =>
        new(OversubscribedPinnedName, OversubscribedPinnedText, "§5.2.2", WorkStealingStats, false,
            context => new SeparateSchedulersArrangement(context, pinned: true, workStealing));

    /// <summary>Shared scheduler (§5.2.3) over a standalone work-stealing scheduler factory.</summary>
    public static SchemeDescriptor Shared(Func<SchedulerRequest, SchedulerHandle> workStealing) =>
        new(SharedName, SharedText, "§5.2.3", WorkStealingStats, false,
            context => new SharedSchedulerArrangement(context, workStealing));

    /// <summary>Statically partitioned by scalability shares (§5.3.2) over a MultiProgramScheduler factory.</summary>
    public static SchemeDescriptor StaticPartitioned(Func<SchemeContext, IMultiprogramPool> createPool) =>
        Partitioned(StaticPartitionedName, StaticText, "§5.3.2", createPool);

    /// <summary>Dynamically repartitioned by task availability (§5.3.3–5.3.4) over a MultiProgramScheduler factory.</summary>
    public static SchemeDescriptor DynamicPartitioned(Func<SchemeContext, IMultiprogramPool> createPool) =>
        Partitioned(DynamicPartitionedName, DynamicText, "§5.3.3–5.3.4", createPool);

    /// <summary>Any further partitioning policy as its own scheme (hill climbing, topology alignment, idle lending, …).</summary>
    public static SchemeDescriptor Partitioned(string name, string description, string thesisSection, Func<SchemeContext, IMultiprogramPool> createPool)
    {
        ArgumentNullException.ThrowIfNull(createPool);
        return new SchemeDescriptor(name, description, thesisSection, PoolStats, requiresScalability: true,
            context => new PartitionedArrangement(context, createPool));
    }

    /// <summary>Every scheme, in report order, each over the real schedulers.</summary>
    /// <param name="timelines">
    /// Where the MultiProgramScheduler schemes leave their allocation timelines when a phase ends (for the allocation
    /// plots and Chrome traces beside the results), or null.
    /// </param>
    public static SchemeRegistry CreateRegistry(SchemeTimelineCollector? timelines = null) => new(
    [
        OversubscribedFree(WorkStealingSchedulers.Create),
        OversubscribedPinned(WorkStealingSchedulers.Create),
        Shared(WorkStealingSchedulers.Create),
        TplDefault,
        StaticPartitioned(c => new MultiProgramPool(c.Processors, new ScalabilityPolicy(), DynamicInterval, timelines: timelines, scheme: StaticPartitionedName)),
        DynamicPartitioned(c => new MultiProgramPool(c.Processors, new TaskAvailabilityPolicy(), DynamicInterval, timelines: timelines, scheme: DynamicPartitionedName)),
        Partitioned(EqualSharesName, EqualSharesText, "§5.3 (baseline)", c => new MultiProgramPool(c.Processors, new EqualSharesPolicy(), DynamicInterval, timelines: timelines, scheme: EqualSharesName)),
        Partitioned(HillClimbingName, HillClimbingText, "§8.2", c => new MultiProgramPool(c.Processors, new HillClimbingPolicy(), DynamicInterval, timelines: timelines, scheme: HillClimbingName)),
        Partitioned(IdleLendingName, IdleLendingText, "§8.2 (beyond the thesis)",
            c => new MultiProgramPool(c.Processors, new IdleLendingPolicy(), DynamicInterval, idleLending: true, timelines: timelines, scheme: IdleLendingName)),
    ]);
}
