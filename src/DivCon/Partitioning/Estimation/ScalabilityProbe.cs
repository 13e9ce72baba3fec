namespace DivCon.Partitioning.Estimation;

/// <summary>
/// A request from <see cref="OnlineScalabilityEstimator"/>: give program <paramref name="ProgramId"/>
/// <paramref name="Cores"/> cores for the next tick, so it can be observed at a second allocation. A policy may
/// honour it (<see cref="ProbeAllocation.Apply"/>) or ignore it; the estimator's probing budget is spent either way.
/// </summary>
/// <param name="ProgramId">The program, as given to <see cref="OnlineScalabilityEstimator.Observe"/>.</param>
/// <param name="Cores">The core count to observe it at; between 1 and the estimator's cores.</param>
public readonly record struct ScalabilityProbe(int ProgramId, int Cores);
