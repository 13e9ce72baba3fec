using DivCon.Scheduling;

namespace DivCon.Benchmarks.Scheduling;

/// <summary>The two schedulers compared in one run: the .NET thread pool's and DivCon's with two workers.</summary>
internal static class SchedulerKind
{
    public const int Workers = 2;

    public static WorkStealingTaskScheduler CreateWorkStealing() => new(Workers);

    /// <summary>
    /// The same scheduler with each worker pinned to one of the first <see cref="Workers"/> processors this process may
    /// use (best effort: unpinned, and said so in its <c>UnpinnedReason</c>, where pinning is impossible).
    /// </summary>
    public static WorkStealingTaskScheduler CreatePinned() => new(new WorkStealingSchedulerOptions
    {
        WorkerCount = Workers,
        Processors = ThreadAffinity.GetProcessAffinity().Take(Workers).ToArray() is { Length: Workers } processors ? processors : null,
        BestEffortPinning = true,
    });

    /// <summary>
    /// Restricted stealing with every worker in its own group: each steal first sweeps an empty own group, then
    /// widens (the most the restricted sweep can cost on this 2-core machine with one shared cache).
    /// </summary>
    public static WorkStealingTaskScheduler CreateCacheGroupFirst() => new(new WorkStealingSchedulerOptions
    {
        WorkerCount = Workers,
        StealingScope = StealingScope.CacheGroupFirst,
        StealingGroups = Enumerable.Range(0, Workers).Select(i => (IReadOnlyList<int>)[i]).ToArray(),
    });
}
