using DivCon.Scheduling;
using DivCon.Partitioning;

namespace DivCon.Multiprogramming;

/// <summary>How a <see cref="MultiProgramScheduler"/> is built.</summary>
public sealed class MultiProgramSchedulerOptions
{
    /// <summary>The default repartitioning interval (100 ms, thesis §5.3.4).</summary>
    public static readonly TimeSpan DefaultRepartitionInterval = TimeSpan.FromMilliseconds(100);

    /// <summary>
    /// Processors to pin one worker each to; null: one worker per core of the CPU budget
    /// (<see cref="CpuBudget.Cores"/>), on <see cref="CpuBudget.SelectProcessors()"/>: every processor this process
    /// may run on, or under a cgroup CPU quota that allows fewer, that many packed into as few cache groups as
    /// possible. A list longer than the budget is honoured, with <see cref="MultiProgramScheduler.BudgetWarning"/>
    /// saying so.
    /// </summary>
    public IReadOnlyList<int>? Processors { get; init; }

    /// <summary>The CPU budget to size the pool by; null: <see cref="CpuBudget.Detect"/> when the scheduler is created.</summary>
    public CpuBudget? Budget { get; init; }

    /// <summary>Where pinning is impossible: false throws <see cref="PlatformNotSupportedException"/>, true runs unpinned.</summary>
    public bool BestEffortPinning { get; init; }

    /// <summary>
    /// Run the workers unpinned (one per processor still): for benchmarks comparing with an unpinned scheduler, or
    /// environments that forbid affinity changes.
    /// </summary>
    public bool Unpinned { get; init; }

    /// <summary>
    /// The partitioning policy; null: <see cref="WorkConservingPolicy"/> (equal shares as guarantees, idle cores lent
    /// at once by throughput, recalled at a task boundary; why it is the default: README, "Multiprogramming schemes").
    /// Can be replaced later (<see cref="MultiProgramScheduler.Policy"/>).
    /// </summary>
    public IPartitioningPolicy? Policy { get; init; }

    /// <summary>
    /// Time between periodic repartitionings: from 1 ms to 1 hour, or <see cref="Timeout.InfiniteTimeSpan"/> for
    /// none (only on program arrival/exit and explicit calls).
    /// </summary>
    public TimeSpan RepartitionInterval { get; init; } = DefaultRepartitionInterval;

    /// <summary>
    /// Idle lending with <see cref="Partitioning.IdleLending.ChooseBorrower"/>'s rule for a policy that has no borrower
    /// rule of its own: a worker whose program has no task it can find (after spinning) serves the program that rule
    /// chooses among those with queued tasks, until its own program has a queued task again (recall, at its next task
    /// boundary), until that program has no task it can find (then it goes back, and may be lent again), or until an
    /// allocation that changes something. Off by default. A policy implementing <see cref="IIdleLendingPolicy"/> (the
    /// default policy does) turns lending on by itself, with its own rule.
    /// </summary>
    public bool IdleLending { get; init; }

    /// <summary>
    /// Demand-driven repartitioning, beside the periodic tick (as oneTBB's market re-divides workers when an arena's
    /// demand changes): a program that gets work while none of its workers is parked, or runs dry, wakes the
    /// repartitioner thread for a decision (trigger <see cref="RepartitionTrigger.Demand"/>; at most one pending at a
    /// time). Off by default: under the default policy lending and recall already follow demand between decisions;
    /// docs/simulation.md measures what it adds to the task-availability policy and what it costs.
    /// </summary>
    public bool RepartitionOnDemand { get; init; }

    /// <summary>
    /// A program that gets a task while no pool worker is assigned to it (the policy gave it none, or every one it holds
    /// is lent away) and no worker is idle to lend itself wakes the repartitioner for a decision at once (trigger
    /// <see cref="RepartitionTrigger.Demand"/>) instead of waiting for the next tick; at most one such decision per
    /// <see cref="StarvedRepartitionGap"/>. Default on. With more busy programs than cores the decision rotates a core to
    /// the waiting program (<see cref="Partitioning.Rotation"/>), so cores then rotate at the demand's pace, not the
    /// interval's.
    /// </summary>
    public bool RepartitionWhenStarved { get; init; } = true;

    /// <summary>The least time between two decisions started by <see cref="RepartitionWhenStarved"/> (default 2 ms); 0 to 1 s.</summary>
    public TimeSpan StarvedRepartitionGap { get; init; } = TimeSpan.FromMilliseconds(2);

    /// <summary>The default <see cref="NewcomerQuantum"/>: 8 ms of attained service (why: docs/DESIGN.md, "Short jobs first").</summary>
    public static readonly TimeSpan DefaultNewcomerQuantum = TimeSpan.FromMilliseconds(8);

    /// <summary>
    /// Short jobs first (<see cref="Partitioning.NewcomerPriority"/>): a program whose attained service since it was added
    /// (the time its tasks ran, summed over workers) is below this quantum is a newcomer; while it has work (tasks queued
    /// or running) it holds the cores (the newcomer with the least attained service holds them all; reason
    /// <see cref="AllocationReason.Newcomer"/>), taken from the other programs, which get their policy's shares back once
    /// it passes the quantum or runs out of work. A newcomer that gets work while it holds fewer than every core wakes
    /// the repartitioner at once (trigger <see cref="RepartitionTrigger.Demand"/>, at most one per
    /// <see cref="StarvedRepartitionGap"/>), and the repartitioner re-decides when a newcomer served first may have passed
    /// the quantum, without waiting for the tick. Cores a newcomer cannot use are lent
    /// back by idle lending (the default policy lends). Default <see cref="DefaultNewcomerQuantum"/>; zero turns it off;
    /// at most 1 s. Not applied to a policy that does not rotate (a fixed allocation).
    /// </summary>
    public TimeSpan NewcomerQuantum { get; init; } = DefaultNewcomerQuantum;

    /// <summary>
    /// Online scalability estimation (docs/online-scalability.md): each program added without a scalability or table
    /// is estimated at every periodic repartitioning from its core time, idle time and tasks, with bounded probes at
    /// other core counts, and the policy is given the estimate (a user-given number or table always wins). Default on,
    /// with the estimator's default settings; null: off (such programs get scalability 1).
    /// </summary>
    public Partitioning.Estimation.ScalabilityEstimatorOptions? ScalabilityEstimation { get; init; } = new();

    /// <summary>What <see cref="MultiProgramScheduler.Dispose"/> does with programs still registered.</summary>
    public ProgramRemoval DisposeMode { get; init; } = ProgramRemoval.WaitForTasks;

    /// <summary>How many moves the <see cref="AllocationTimeline"/> keeps (oldest dropped first); at least 1.</summary>
    public int TimelineCapacity { get; init; } = 1 << 16;

    /// <summary>
    /// Which victims a thief tries first: <see cref="Scheduling.StealingScope.All"/> (default: every other worker from a
    /// random start) or <see cref="Scheduling.StealingScope.CacheGroupFirst"/> (its own cache group first, then the
    /// others). The groups come from <see cref="StealingGroups"/>, else <see cref="StealingTopology"/>, else (only for
    /// CacheGroupFirst) the detected topology. Statistics split steals into same-group and remote ones.
    /// </summary>
    public StealingScope StealingScope { get; init; } = StealingScope.All;

    /// <summary>
    /// The machine whose cache groups define the stealing groups (a synthetic one for tests); null: detected when
    /// <see cref="StealingScope"/> is CacheGroupFirst. Pinned workers are in their processor's group; unpinned
    /// worker i counts as on the topology's i-th processor (round-robin).
    /// </summary>
    public CpuTopology? StealingTopology { get; init; }

    /// <summary>
    /// Explicit stealing groups of worker indexes (each worker in exactly one group), overriding
    /// <see cref="StealingTopology"/>; null: from the topology. With neither and scope All, every worker is in one
    /// group (every steal counts as local).
    /// </summary>
    public IReadOnlyList<IReadOnlyList<int>>? StealingGroups { get; init; }

    /// <summary>Prefix of the worker threads' names.</summary>
    public string ThreadName { get; init; } = "DivCon mp worker";

    /// <summary>
    /// Blocking compensation, per program (default on): when a program holding a worker has tasks queued but none of
    /// its tasks started or finished for <see cref="CompensationDelay"/>, a temporary compensating worker thread serves
    /// that program (outside any allocation, at most <see cref="MaxCompensatingWorkers"/> per program) until the worker
    /// it stands in for returns from its task. LongRunning tasks run on a dedicated thread. Off: never more worker
    /// threads than processors, and blocking user code can deadlock its program (the thesis's setting).
    /// </summary>
    public bool CompensateBlocking { get; init; } = true;

    /// <summary>How long a program must stall before a compensating worker is added; 1 ms to 1 hour.</summary>
    public TimeSpan CompensationDelay { get; init; } = WorkStealingSchedulerOptions.DefaultCompensationDelay;

    /// <summary>The most compensating workers alive at once per program; 1 to 4096.</summary>
    public int MaxCompensatingWorkers { get; init; } = WorkStealingSchedulerOptions.DefaultMaxCompensatingWorkers;
}
