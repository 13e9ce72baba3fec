namespace DivCon.Metrics.Schemes;

/// <summary>How a multiprogramming scheme gives the programs of a workload their threads (thesis §5.2–5.3).</summary>
public enum SchemeArrangement
{
    /// <summary>One work-stealing scheduler per program, a free (unpinned) worker per core each (§5.2.1).</summary>
    OversubscribedFree,

    /// <summary>One work-stealing scheduler per program, a worker pinned to every core each (§5.2.2).</summary>
    OversubscribedPinned,

    /// <summary>One work-stealing scheduler, a worker pinned to each core, shared by all programs (§5.2.3).</summary>
    Shared,

    /// <summary>Every program on <c>TaskScheduler.Default</c>, the .NET thread pool.</summary>
    ThreadPool,

    /// <summary>One <c>MultiProgramScheduler</c> whose partitioning policy divides the cores (§5.3).</summary>
    Partitioned,
}
