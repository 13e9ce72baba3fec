namespace DivCon.Harness.Schemes;

/// <summary>
/// The schedulers of one phase as <see cref="BuiltInSchemes"/> built them: each program's scheduler, how to read what
/// they report, what a stopped run asks of them, and how to shut them all down.
/// </summary>
internal sealed class SchedulerArrangement(
    IReadOnlyList<TaskScheduler> schedulers, Func<IReadOnlyList<SchedulerStats>> snapshot, Action dispose, Action<int>? runStopping = null)
    : ISchedulerArrangement
{
    public TaskScheduler SchedulerFor(int program) => schedulers[program];

    public IReadOnlyList<SchedulerStats> Snapshot() => snapshot();

    public void OnRunStopping(int program) => runStopping?.Invoke(program);

    public void Dispose() => dispose();
}
