namespace DivCon.Partitioning.Estimation;

/// <summary>
/// A program's cumulative counters as a mechanism keeps them (since the program was added): what
/// <see cref="ScalabilityTracker.Observe"/> takes the per-tick differences of.
/// </summary>
/// <param name="CoreSeconds">Core time served: Σ over workers of the time each served the program (busy + idle).</param>
/// <param name="IdleSeconds">Part of it without one of the program's tasks.</param>
/// <param name="TasksExecuted">Tasks of the program that finished.</param>
public readonly record struct ProgramCounters(double CoreSeconds, double IdleSeconds, long TasksExecuted);
