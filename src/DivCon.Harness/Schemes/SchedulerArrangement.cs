namespace DivCon.Harness.Schemes;

/// <summary>
/// The TaskScheduler(s) a scheme built for one phase: which scheduler each program issues its tasks to, what they
/// report, and what a stopped run asks of them. Disposing it shuts down every scheduler the scheme created (the
/// harness disposes it only after every run of the phase has ended).
/// </summary>
/// <param name="schedulers">Per program (an index into <see cref="SchemeContext.Programs"/>): the scheduler it runs on.</param>
/// <param name="snapshot">Per program: what its scheduler reports now.</param>
/// <param name="dispose">Shuts down every scheduler the scheme created.</param>
/// <param name="runStopping">What <see cref="OnRunStopping"/> does; null: nothing.</param>
public sealed class SchedulerArrangement(
    IReadOnlyList<TaskScheduler> schedulers, Func<IReadOnlyList<SchedulerStats>> snapshot, Action dispose, Action<int>? runStopping = null)
    : IDisposable
{
    /// <summary>The scheduler program <paramref name="program"/> runs on.</summary>
    public TaskScheduler SchedulerFor(int program) => schedulers[program];

    /// <summary>Per program: what its scheduler reports now.</summary>
    public IReadOnlyList<SchedulerStats> Snapshot() => snapshot();

    /// <summary>
    /// The phase has asked the current run of program <paramref name="program"/> to stop (its time limit passed, or
    /// another program failed): called once per stopped run, on the thread that cancels, so it must be quick. An
    /// arrangement whose policy may leave a program without a worker must make sure the stopped run's queued tasks
    /// get one, or the run could never end.
    /// </summary>
    public void OnRunStopping(int program) => runStopping?.Invoke(program);

    /// <summary>Shuts down every scheduler the scheme created.</summary>
    public void Dispose() => dispose();
}
