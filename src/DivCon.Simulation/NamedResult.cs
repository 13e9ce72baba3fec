namespace DivCon.Simulation;

/// <summary>One simulated cyclic test with the name of its workload, as reports list it.</summary>
/// <param name="Workload">The workload's name (for example <c>suite</c> or <c>subset</c>).</param>
/// <param name="Result">The simulation.</param>
public sealed record NamedResult(string Workload, SimulationResult Result);
