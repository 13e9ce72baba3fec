namespace DivCon.Partitioning.Estimation;

/// <summary>
/// What the multiprogram scheduler recorded about one program over one repartitioning tick: the input of
/// <see cref="OnlineScalabilityEstimator.Observe"/>. Every field is a difference of the program's counters between
/// the start and the end of the tick, so none of them needs anything but the counters the workers already keep.
/// </summary>
/// <param name="AssignedCores">
/// The cores the allocation gave the program over the tick (the last allocation in force during it). Only groups
/// the ticks; the model uses the cores actually served, <see cref="ServedCores"/>, averaged over each group.
/// </param>
/// <param name="ElapsedSeconds">Wall time the tick lasted; positive for a sample that counts.</param>
/// <param name="CoreSeconds">
/// Core time the program was served during the tick: Σ over workers of the time each spent serving it (busy + idle),
/// what <c>ProgramStatistics.CoreTime</c> grows by. Served, not assigned: a worker still finishing another program's
/// task does not count. <c>CoreSeconds / ElapsedSeconds</c> is the average number of cores the program had.
/// </param>
/// <param name="IdleSeconds">Part of <paramref name="CoreSeconds"/> the program's workers spent without one of its tasks.</param>
/// <param name="TasksExecuted">Tasks of the program that finished during the tick.</param>
public readonly record struct ScalabilitySample(int AssignedCores, double ElapsedSeconds, double CoreSeconds, double IdleSeconds, long TasksExecuted)
{
    /// <summary>Average cores served over the tick: <see cref="CoreSeconds"/> / <see cref="ElapsedSeconds"/> (0 for an empty tick).</summary>
    public double ServedCores => ElapsedSeconds > 0 ? CoreSeconds / ElapsedSeconds : 0;

    /// <summary>Core time spent running the program's tasks: <see cref="CoreSeconds"/> − <see cref="IdleSeconds"/>.</summary>
    public double BusySeconds => CoreSeconds - IdleSeconds;
}
