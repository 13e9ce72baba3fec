namespace DivCon.Harness.Schemes;

/// <summary>
/// Shared-scheduler multiprogramming (§5.2.3): one work-stealing scheduler with a worker pinned to each processor;
/// every program inserts its tasks into the same global queue.
/// </summary>
internal sealed class SharedSchedulerArrangement : ISchedulerArrangement
{
    private readonly SchedulerHandle _handle;
    private readonly int _programs;

    public SharedSchedulerArrangement(SchemeContext context, Func<SchedulerRequest, SchedulerHandle> create)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(create);
        _programs = context.Programs.Count;
        _handle = create(new SchedulerRequest("shared", context.Cores, context.Processors, context.Budget));
    }

    public TaskScheduler SchedulerFor(int program)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(program, _programs);
        return _handle.Scheduler;
    }

    public IReadOnlyList<SchedulerStats> Snapshot()
    {
        SchedulerStats stats = _handle.Stats();
        return Enumerable.Repeat(stats, _programs).ToArray();
    }

    public void Dispose() => _handle.Lifetime?.Dispose();
}
