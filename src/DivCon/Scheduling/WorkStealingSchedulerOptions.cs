namespace DivCon.Scheduling;

/// <summary>How a <see cref="WorkStealingTaskScheduler"/> is built.</summary>
public sealed class WorkStealingSchedulerOptions
{
    /// <summary>The largest worker count accepted.</summary>
    public const int MaxWorkerCount = 4096;

    /// <summary>
    /// Number of workers; null means one per given processor when <see cref="Processors"/> is set, otherwise the CPU
    /// budget's <see cref="CpuBudget.Cores"/> (the processors this process may run on, lowered to a cgroup CPU quota,
    /// or <c>DOTNET_PROCESSOR_COUNT</c>). A count above the budget is honoured, with
    /// <see cref="WorkStealingTaskScheduler.BudgetWarning"/> saying so.
    /// </summary>
    public int? WorkerCount { get; init; }

    /// <summary>The CPU budget to size the scheduler by; null: <see cref="CpuBudget.Detect"/> when the scheduler is created.</summary>
    public CpuBudget? Budget { get; init; }

    /// <summary>
    /// Processor ids to pin one worker each to (Linux <c>sched_setaffinity</c>, Windows <c>SetThreadAffinityMask</c>);
    /// null for unpinned workers. Each id must be in the process's affinity mask, with no duplicates.
    /// </summary>
    public IReadOnlyList<int>? Processors { get; init; }

    /// <summary>
    /// When pinning is impossible on this platform: false (default) throws <see cref="PlatformNotSupportedException"/>;
    /// true runs the workers unpinned and reports it in <see cref="WorkStealingTaskScheduler.IsPinned"/>.
    /// </summary>
    public bool BestEffortPinning { get; init; }

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
    public string ThreadName { get; init; } = "DivCon worker";

    /// <summary>The default of <see cref="CompensationDelay"/>: 100 ms.</summary>
    public static readonly TimeSpan DefaultCompensationDelay = TimeSpan.FromMilliseconds(100);

    /// <summary>The default of <see cref="MaxCompensatingWorkers"/>.</summary>
    public const int DefaultMaxCompensatingWorkers = 64;

    /// <summary>
    /// Blocking compensation (default on): when tasks are queued but no task started or finished for
    /// <see cref="CompensationDelay"/> while a worker is inside a task (user code blocked in <c>Wait</c>, a lock, an
    /// event set by a later task), a temporary compensating worker thread is added, at most
    /// <see cref="MaxCompensatingWorkers"/> at once; it retires as soon as the worker it stands in for returns from its
    /// task, or when it finds nothing to do. Tasks created with <see cref="TaskCreationOptions.LongRunning"/> run on a
    /// dedicated thread. Off: never more threads than <see cref="WorkerCount"/> (blocking user code can then deadlock
    /// the scheduler, and LongRunning tasks run on a worker like any other).
    /// </summary>
    public bool CompensateBlocking { get; init; } = true;

    /// <summary>How long a stall must last before a compensating worker is added; 1 ms to 1 hour.</summary>
    public TimeSpan CompensationDelay { get; init; } = DefaultCompensationDelay;

    /// <summary>The most compensating workers alive at once; 1 to 4096.</summary>
    public int MaxCompensatingWorkers { get; init; } = DefaultMaxCompensatingWorkers;

    /// <summary>Checks the compensation options; the message says what is allowed.</summary>
    internal static void ValidateCompensation(TimeSpan delay, int max, string paramName)
    {
        if (delay < TimeSpan.FromMilliseconds(1) || delay > TimeSpan.FromHours(1))
        {
            throw new ArgumentOutOfRangeException(paramName, delay, "CompensationDelay must be between 1 ms and 1 hour.");
        }

        if (max is < 1 or > MaxWorkerCount)
        {
            throw new ArgumentOutOfRangeException(paramName, max, $"MaxCompensatingWorkers must be between 1 and {MaxWorkerCount}.");
        }
    }
}
