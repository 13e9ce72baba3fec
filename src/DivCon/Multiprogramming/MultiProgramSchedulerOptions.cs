using DivCon.Partitioning;

namespace DivCon.Multiprogramming;

/// <summary>How a <see cref="MultiProgramScheduler"/> is built.</summary>
public sealed class MultiProgramSchedulerOptions
{
    /// <summary>The default repartitioning interval (100 ms, thesis §5.3.4).</summary>
    public static readonly TimeSpan DefaultRepartitionInterval = TimeSpan.FromMilliseconds(100);

    /// <summary>Processors to pin one worker each to; null: every processor this process may run on.</summary>
    public IReadOnlyList<int>? Processors { get; init; }

    /// <summary>Where pinning is impossible: false throws <see cref="PlatformNotSupportedException"/>, true runs unpinned.</summary>
    public bool BestEffortPinning { get; init; }

    /// <summary>
    /// Run the workers unpinned (one per processor still): for benchmarks comparing with an unpinned scheduler, or
    /// environments that forbid affinity changes.
    /// </summary>
    public bool Unpinned { get; init; }

    /// <summary>The partitioning policy; null: <see cref="EqualSharesPolicy"/>. Can be replaced later (<see cref="MultiProgramScheduler.Policy"/>).</summary>
    public IPartitioningPolicy? Policy { get; init; }

    /// <summary>
    /// Time between periodic repartitionings: from 1 ms to 1 hour, or <see cref="Timeout.InfiniteTimeSpan"/> for
    /// none (only on program arrival/exit and explicit calls).
    /// </summary>
    public TimeSpan RepartitionInterval { get; init; } = DefaultRepartitionInterval;

    /// <summary>
    /// Idle lending: a worker whose program has no task it can find (after spinning) serves another program that has
    /// queued tasks until the next repartitioning puts it back. Off by default: with it on, a program's tasks may run
    /// on processors outside its allocation between ticks.
    /// </summary>
    public bool IdleLending { get; init; }

    /// <summary>What <see cref="MultiProgramScheduler.Dispose"/> does with programs still registered.</summary>
    public ProgramRemoval DisposeMode { get; init; } = ProgramRemoval.WaitForTasks;

    /// <summary>How many moves the <see cref="AllocationTimeline"/> keeps (oldest dropped first); at least 1.</summary>
    public int TimelineCapacity { get; init; } = 1 << 16;

    /// <summary>Prefix of the worker threads' names.</summary>
    public string ThreadName { get; init; } = "DivCon mp worker";
}
