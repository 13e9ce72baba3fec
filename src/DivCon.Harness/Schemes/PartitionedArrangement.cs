namespace DivCon.Harness.Schemes;

/// <summary>
/// Partitioned multiprogramming (§5.3): one MultiProgramScheduler pool over the processors; each program registers
/// with its scalability and gets its own TaskScheduler; the pool's policy divides the cores (fixed shares, or
/// repartitioned by task availability, or any further policy).
/// </summary>
internal sealed class PartitionedArrangement : ISchedulerArrangement
{
    private readonly IMultiprogramPool _pool;
    private readonly TaskScheduler[] _schedulers;

    public PartitionedArrangement(SchemeContext context, Func<SchemeContext, IMultiprogramPool> createPool)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(createPool);
        _pool = createPool(context);
        try
        {
            _schedulers = context.Programs
                .Select(p => _pool.AddProgram(p.Name, context.OnlineScalability ? null : p.Scalability ?? throw new ArgumentException($"Program '{p.Name}' has no scalability.")))
                .ToArray();
        }
        catch
        {
            _pool.Dispose();
            throw;
        }
    }

    public TaskScheduler SchedulerFor(int program) => _schedulers[program];

    public IReadOnlyList<SchedulerStats> Snapshot() => Enumerable.Range(0, _schedulers.Length).Select(_pool.StatsFor).ToArray();

    public void OnRunStopping(int program) => _pool.OnRunStopping(program);

    public void Dispose() => _pool.Dispose();
}
