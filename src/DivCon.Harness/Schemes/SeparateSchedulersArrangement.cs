namespace DivCon.Harness.Schemes;

/// <summary>
/// Oversubscribed multiprogramming (§5.2.1–5.2.2): one standalone work-stealing scheduler per program, each with a
/// worker per processor, free or pinned; n programs put n threads on every core.
/// </summary>
internal sealed class SeparateSchedulersArrangement : ISchedulerArrangement
{
    private readonly SchedulerHandle[] _handles;

    public SeparateSchedulersArrangement(SchemeContext context, bool pinned, Func<SchedulerRequest, SchedulerHandle> create)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(create);
        var handles = new List<SchedulerHandle>(context.Programs.Count);
        try
        {
            foreach (SchemeProgramInfo program in context.Programs)
            {
                handles.Add(create(new SchedulerRequest(program.Name, context.Cores, pinned ? context.Processors : null, context.Budget)));
            }
        }
        catch
        {
            // Do not leak the worker threads of the schedulers already made.
            foreach (SchedulerHandle h in handles)
            {
                h.Lifetime?.Dispose();
            }

            throw;
        }

        _handles = handles.ToArray();
    }

    public TaskScheduler SchedulerFor(int program) => _handles[program].Scheduler;

    public IReadOnlyList<SchedulerStats> Snapshot() => _handles.Select(h => h.Stats()).ToArray();

    public void Dispose()
    {
        foreach (SchedulerHandle h in _handles)
        {
            h.Lifetime?.Dispose();
        }
    }
}
