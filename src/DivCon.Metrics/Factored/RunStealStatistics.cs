namespace DivCon.Metrics.Factored;

/// <summary>
/// What the scheduler's counters say about the steals of one parallel run (issue 10, seed 002): successful steals,
/// split into those from a worker of the thief's own stealing group (local) and from another group (remote), and
/// I_P split into seed 002's scheduling overhead (time in steal sweeps that succeeded) and waiting time (the rest of
/// I_P: failed sweeps, global-queue checks, spinning, parked), so <see cref="SchedulingOverheadSeconds"/> +
/// <see cref="WaitingSeconds"/> is the run's I_P. For a mean over runs the counts may be fractional.
/// </summary>
/// <param name="Steals">Successful steals, all workers.</param>
/// <param name="LocalSteals">Steals from the thief's own group.</param>
/// <param name="RemoteSteals">Steals from another group.</param>
/// <param name="SchedulingOverheadSeconds">Time in successful steal sweeps, all workers.</param>
/// <param name="WaitingSeconds">I_P without the successful steal sweeps.</param>
public sealed record RunStealStatistics(
    double Steals,
    double LocalSteals,
    double RemoteSteals,
    double SchedulingOverheadSeconds,
    double WaitingSeconds);
