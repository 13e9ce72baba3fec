namespace DivCon.Scheduling;

/// <summary>How a <see cref="WorkStealingTaskScheduler"/> is built.</summary>
public sealed class WorkStealingSchedulerOptions
{
    /// <summary>The largest worker count accepted.</summary>
    public const int MaxWorkerCount = 4096;

    /// <summary>
    /// Number of workers; null means one per given processor when <see cref="Processors"/> is set, otherwise one per
    /// processor this process may run on (its affinity mask, which honours <c>taskset</c> and cgroup cpusets).
    /// </summary>
    public int? WorkerCount { get; init; }

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

    /// <summary>Prefix of the worker threads' names.</summary>
    public string ThreadName { get; init; } = "DivCon worker";
}
