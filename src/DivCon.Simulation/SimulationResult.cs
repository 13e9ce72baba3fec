namespace DivCon.Simulation;

/// <summary>A whole simulated cyclic test.</summary>
/// <param name="Request">What was simulated.</param>
/// <param name="Isolated">The C^SP phase, per program.</param>
/// <param name="Schemes">Per scheme, in request order.</param>
/// <param name="Comparisons">Every pair of schemes on ANTT and on STP whose values exist in every repetition.</param>
public sealed record SimulationResult(
    SimulationRequest Request,
    IReadOnlyList<IsolatedResult> Isolated,
    IReadOnlyList<SchemeResult> Schemes,
    IReadOnlyList<SchemeComparison> Comparisons);
