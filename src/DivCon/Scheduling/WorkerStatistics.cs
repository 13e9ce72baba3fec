namespace DivCon.Scheduling;

/// <summary>
/// One worker's counters over a measurement window (since the scheduler started or its statistics were last reset).
/// <see cref="BusyTime"/> + <see cref="IdleTime"/> is the time the worker served the scheduler in the window.
/// </summary>
/// <param name="Worker">The worker's index (its slot).</param>
/// <param name="ProcessorId">The processor the worker is pinned to, or null when it is not pinned.</param>
/// <param name="TasksExecuted">Tasks the worker ran (including tasks inlined on it).</param>
/// <param name="Steals">Successful steals from other workers' deques.</param>
/// <param name="StealTime">Time spent in the steal sweeps that succeeded (part of <see cref="IdleTime"/>).</param>
/// <param name="BusyTime">Time spent running tasks.</param>
/// <param name="IdleTime">Time spent looking for work (global queue, steals, spinning) and parked: the I_P of the factored speedups.</param>
/// <param name="LocalSteals">Successful steals from a worker of the thief's own stealing (cache) group.</param>
/// <param name="RemoteSteals">Successful steals from a worker of another stealing group.</param>
public sealed record WorkerStatistics(
    int Worker,
    int? ProcessorId,
    long TasksExecuted,
    long Steals,
    TimeSpan StealTime,
    TimeSpan BusyTime,
    TimeSpan IdleTime,
    long LocalSteals = 0,
    long RemoteSteals = 0)
{
    /// <summary>Seed 002's scheduling overhead: time in the steal sweeps that succeeded (= <see cref="StealTime"/>).</summary>
    public TimeSpan SchedulingOverhead => StealTime;

    /// <summary>
    /// Seed 002's idle time: <see cref="IdleTime"/> without the successful steals, i.e. failed steal sweeps, global
    /// queue checks, spinning and parking. <see cref="SchedulingOverhead"/> + <see cref="WaitingTime"/> = <see cref="IdleTime"/>.
    /// </summary>
    public TimeSpan WaitingTime => IdleTime > StealTime ? IdleTime - StealTime : TimeSpan.Zero;
}
