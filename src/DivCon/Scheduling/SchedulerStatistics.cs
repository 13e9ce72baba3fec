namespace DivCon.Scheduling;

/// <summary>
/// A snapshot of a scheduler's instrumentation over a window that starts when the scheduler started or when its
/// statistics were last reset, and ends when the snapshot was taken. Totals are sums over <see cref="Workers"/>.
/// </summary>
public sealed class SchedulerStatistics
{
    /// <summary>Creates a snapshot from per-worker values.</summary>
    /// <param name="elapsed">Wall-clock length of the window.</param>
    /// <param name="workers">Per-worker values, in worker order.</param>
    public SchedulerStatistics(TimeSpan elapsed, IReadOnlyList<WorkerStatistics> workers)
    {
        ArgumentNullException.ThrowIfNull(workers);
        Elapsed = elapsed;
        Workers = workers;
        foreach (WorkerStatistics w in workers)
        {
            TasksExecuted += w.TasksExecuted;
            Steals += w.Steals;
            LocalSteals += w.LocalSteals;
            RemoteSteals += w.RemoteSteals;
            WaitingTime += w.WaitingTime;
            StealTime += w.StealTime;
            BusyTime += w.BusyTime;
            IdleTime += w.IdleTime;
        }
    }

    /// <summary>Wall-clock length of the window.</summary>
    public TimeSpan Elapsed { get; }

    /// <summary>Per-worker values, in worker order.</summary>
    public IReadOnlyList<WorkerStatistics> Workers { get; }

    /// <summary>Tasks executed by all workers.</summary>
    public long TasksExecuted { get; }

    /// <summary>Successful steals by all workers.</summary>
    public long Steals { get; }

    /// <summary>Successful steals from a worker of the thief's own stealing (cache) group, all workers.</summary>
    public long LocalSteals { get; }

    /// <summary>Successful steals from a worker of another stealing group, all workers.</summary>
    public long RemoteSteals { get; }

    /// <summary>Seed 002's scheduling overhead, all workers: time in successful steal sweeps (= <see cref="StealTime"/>).</summary>
    public TimeSpan SchedulingOverhead => StealTime;

    /// <summary>Seed 002's idle time, all workers: <see cref="IdleTime"/> without the successful steal sweeps.</summary>
    public TimeSpan WaitingTime { get; }

    /// <summary>Time all workers spent in successful steal sweeps.</summary>
    public TimeSpan StealTime { get; }

    /// <summary>Time all workers spent running tasks.</summary>
    public TimeSpan BusyTime { get; }

    /// <summary>Time all workers spent without a task (I_P).</summary>
    public TimeSpan IdleTime { get; }

    /// <summary>
    /// Set when the scheduler runs more workers than its CPU budget (an explicit worker count or processor list won
    /// over it): what the budget is and why exceeding it costs. Null otherwise.
    /// </summary>
    public string? BudgetWarning { get; init; }
}
