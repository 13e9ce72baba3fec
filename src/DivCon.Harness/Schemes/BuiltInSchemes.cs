namespace DivCon.Harness.Schemes;

/// <summary>
/// The schemes of issue 6 / thesis §5.2–5.3. <see cref="CreateRegistry"/> lists all of them; in this build only
/// <c>tpl-default</c> is runnable, the others are listed as unavailable until their scheduler types are wired with the
/// factory methods below, for example
/// <c>registry.With(BuiltInSchemes.OversubscribedFree(r => WorkStealing.Handle(new WorkStealingTaskScheduler(...))))</c>.
/// </summary>
public static class BuiltInSchemes
{
    /// <summary>Scheme names, in report order.</summary>
    public const string OversubscribedFreeName = "oversubscribed-free",
        OversubscribedPinnedName = "oversubscribed-pinned",
        SharedName = "shared",
        TplDefaultName = "tpl-default",
        StaticPartitionedName = "static-partitioned",
        DynamicPartitionedName = "dynamic-partitioned";

    private const string OversubscribedFreeText =
        "One work-stealing scheduler per program, each with a free (unpinned) worker per core: cores oversubscribed n-fold, the OS migrates threads.";

    private const string OversubscribedPinnedText =
        "One work-stealing scheduler per program, each with a worker pinned to every core: n threads per core, no migration.";

    private const string SharedText =
        "One work-stealing scheduler with a worker pinned to each core, shared by all programs (one global queue).";

    private const string TplDefaultText =
        "Every program on TaskScheduler.Default (the .NET thread pool): shared, unpinned, injects threads as it sees fit.";

    private const string StaticText =
        "MultiProgramScheduler: one pinned pool; each program holds a fixed share of the cores proportional to its scalability.";

    private const string DynamicText =
        "MultiProgramScheduler: scalability shares, repartitioned every interval by task availability (Figure 5.20).";

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

    /// <summary>
    /// Every scheme of the issue, in report order: <c>tpl-default</c> runnable; the others listed as unavailable, with
    /// the type each needs, until wired with <see cref="SchemeRegistry.With"/>.
    /// </summary>
    public static SchemeRegistry CreateRegistry()
    {
        const string needsWs = "needs DivCon.Scheduling.WorkStealingTaskScheduler, which is not wired into this build";
        const string needsMp = "needs DivCon.Multiprogramming.MultiProgramScheduler and its partitioning policies, which are not wired into this build";
        return new SchemeRegistry(
        [
            SchemeDescriptor.Unavailable(OversubscribedFreeName, OversubscribedFreeText, "§5.2.1", WorkStealingStats & ~SchemeStatistics.Pinning, false, needsWs),
            SchemeDescriptor.Unavailable(OversubscribedPinnedName, OversubscribedPinnedText, "§5.2.2", WorkStealingStats, false, needsWs),
            SchemeDescriptor.Unavailable(SharedName, SharedText, "§5.2.3", WorkStealingStats, false, needsWs),
            TplDefault,
            SchemeDescriptor.Unavailable(StaticPartitionedName, StaticText, "§5.3.2", PoolStats, true, needsMp),
            SchemeDescriptor.Unavailable(DynamicPartitionedName, DynamicText, "§5.3.3–5.3.4", PoolStats, true, needsMp),
        ]);
    }
}
