namespace DivCon.Harness.Schemes;

/// <summary>
/// The TaskScheduler(s) a scheme built for one phase: which scheduler each program issues its tasks to, and what they
/// report. Disposing it shuts down every scheduler the scheme created (the harness disposes it only after every run
/// of the phase has ended).
/// </summary>
public interface ISchedulerArrangement : IDisposable
{
    /// <summary>The scheduler program <paramref name="program"/> (an index into <see cref="SchemeContext.Programs"/>) runs on.</summary>
    TaskScheduler SchedulerFor(int program);

    /// <summary>Per program: what its scheduler reports now.</summary>
    IReadOnlyList<SchedulerStats> Snapshot();

    /// <summary>
    /// The phase has asked the current run of program <paramref name="program"/> to stop (its time limit passed, or
    /// another program failed): called once per stopped run, on the thread that cancels, so it must be quick. An
    /// arrangement whose policy may leave a program without a worker must make sure the stopped run's queued tasks
    /// get one, or the run could never end. Nothing to do by default.
    /// </summary>
    void OnRunStopping(int program)
    {
    }
}
