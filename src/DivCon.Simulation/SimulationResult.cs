namespace DivCon.Simulation;

/// <summary>A whole simulated cyclic test.</summary>
/// <param name="Request">What was simulated.</param>
/// <param name="Isolated">The C^SP phase, per program.</param>
/// <param name="Schemes">Per scheme, in request order.</param>
public sealed record SimulationResult(SimulationRequest Request, IReadOnlyList<IsolatedResult> Isolated, IReadOnlyList<SchemeResult> Schemes);
