using DivCon.Multiprogramming;
using DivCon.Partitioning;

namespace DivCon.Metrics.Schemes;

/// <summary>
/// Every multiprogramming scheme DivCon compares, in report order: the one list the harness wires to real schedulers,
/// the simulator models (<see cref="SchemeInfo.Simulated"/>), and <c>--schemes</c> and the reports name.
/// </summary>
public static class SchemeCatalog
{
    /// <summary>Scheme names, in report order.</summary>
    public const string OversubscribedFree = "oversubscribed-free",
        OversubscribedPinned = "oversubscribed-pinned",
        Shared = "shared",
        TplDefault = "tpl-default",
        StaticPartitioned = "static-partitioned",
        DynamicPartitioned = "dynamic-partitioned",
        EqualShares = "equal-shares",
        HillClimbing = "hill-climbing",
        IdleLending = "idle-lending",
        DemandPartitioned = "demand-partitioned",
        WorkConserving = "work-conserving";

    /// <summary>The repartitioning interval of the partitioned schemes (thesis §5.3.4).</summary>
    public static readonly TimeSpan RepartitionInterval = MultiProgramSchedulerOptions.DefaultRepartitionInterval;

    /// <summary>Every scheme, in report order.</summary>
    public static IReadOnlyList<SchemeInfo> All { get; } =
    [
        new(OversubscribedFree,
            "One work-stealing scheduler per program, each with a free (unpinned) worker per core: cores oversubscribed n-fold, the OS migrates threads.",
            SchemeArrangement.OversubscribedFree, Simulated: true), // §5.2.1
        new(OversubscribedPinned,
            "One work-stealing scheduler per program, each with a worker pinned to every core: n threads per core, no migration.",
            SchemeArrangement.OversubscribedPinned, Simulated: true), // §5.2.2
        new(Shared,
            "One work-stealing scheduler with a worker pinned to each core, shared by all programs (one global queue).",
            SchemeArrangement.Shared, Simulated: true), // §5.2.3
        // Not simulated: under the asynchronous skeleton no worker blocks inside a task, so the thread pool's injection
        // has nothing to react to and its queues are the shared scheme's; a model of the rest would be invented numbers.
        new(TplDefault,
            "Every program on TaskScheduler.Default (the .NET thread pool): shared, unpinned, injects threads as it sees fit.",
            SchemeArrangement.ThreadPool, Simulated: false), // §5.2.4
        new(StaticPartitioned,
            "MultiProgramScheduler: one pinned pool; each program holds a fixed share of the cores proportional to its scalability (decided on arrival; re-evaluated every 100 ms only so that, with fewer cores than programs, the cores rotate among them, a no-op otherwise).",
            SchemeArrangement.Partitioned, Simulated: true, () => new ScalabilityPolicy()), // §5.3.2
        new(DynamicPartitioned,
            "MultiProgramScheduler: scalability shares, repartitioned every 100 ms by task availability (Figure 5.20).",
            SchemeArrangement.Partitioned, Simulated: true, () => new TaskAvailabilityPolicy()), // §5.3.3–5.3.4
        new(EqualShares,
            "MultiProgramScheduler: equal shares of the cores whatever the scalability, re-evaluated every 100 ms (the remainder goes to the programs with the most available tasks).",
            SchemeArrangement.Partitioned, Simulated: true, () => new EqualSharesPolicy()), // §5.3 (baseline)
        new(HillClimbing,
            "MultiProgramScheduler: static shares found by hill climbing on predicted ANTT from each program's scalability (SBMP-style, §8.2; Amdahl fit of the one measured speedup); re-evaluated every 100 ms only so that the cores rotate when there are fewer cores than programs.",
            SchemeArrangement.Partitioned, Simulated: true, () => new HillClimbingPolicy()), // §8.2
        new(IdleLending,
            "MultiProgramScheduler: task-availability repartitioning every 100 ms, and a worker whose program has no task serves the program with queued tasks that the idle-lending rule picks, until its own program has a queued task again (recall at a task boundary), that program runs dry or an allocation changes.",
            SchemeArrangement.Partitioned, Simulated: true, () => new IdleLendingPolicy(), IdleLending: true), // §8.2 (beyond the thesis)
        new(DemandPartitioned,
            "MultiProgramScheduler: task-availability repartitioning every 100 ms and whenever a program gets work with no idle worker or runs dry (demand-driven, as oneTBB's market).",
            SchemeArrangement.Partitioned, Simulated: true, () => new TaskAvailabilityPolicy()) { RepartitionOnDemand = true }, // §5.3.4 (beyond the thesis)
        new(WorkConserving,
            "MultiProgramScheduler (the default policy): equal shares as guarantees; an idle worker is lent at once to the program that gains most throughput from it, and goes home at its next task boundary once its own program has a queued task.",
            SchemeArrangement.Partitioned, Simulated: true, () => new WorkConservingPolicy(), IdleLending: true), // beyond the thesis
    ];

    /// <summary>The schemes <c>divcon simulate</c> models, in report order.</summary>
    public static IReadOnlyList<SchemeInfo> Simulated { get; } = All.Where(s => s.Simulated).ToArray();

    /// <summary>Looks a scheme up by name (case-insensitive); null when there is none.</summary>
    public static SchemeInfo? Find(string name) => All.FirstOrDefault(s => string.Equals(s.Name, name, StringComparison.OrdinalIgnoreCase));
}
