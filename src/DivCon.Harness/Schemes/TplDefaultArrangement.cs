namespace DivCon.Harness.Schemes;

/// <summary>
/// Default-scheduler multiprogramming (§5.2.4): every program issues its tasks to <see cref="TaskScheduler.Default"/>,
/// the .NET thread pool, which is shared, unpinned, and injects threads as it sees fit. Nothing to create or dispose.
/// </summary>
internal sealed class TplDefaultArrangement(SchemeContext context) : ISchedulerArrangement
{
    public TaskScheduler SchedulerFor(int program)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(program);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(program, context.Programs.Count);
        return TaskScheduler.Default;
    }

    public IReadOnlyList<SchedulerStats> Snapshot()
    {
        // The thread pool's thread count changes with injection; it is reported as-is, not as a fixed worker count.
        var stats = new SchedulerStats("ThreadPoolTaskScheduler", TaskScheduler.Default.Id, ThreadPool.ThreadCount, Pinned: false,
            TasksExecuted: ThreadPool.CompletedWorkItemCount);
        return Enumerable.Repeat(stats, context.Programs.Count).ToArray();
    }

    public void Dispose()
    {
    }
}
