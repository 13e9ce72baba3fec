namespace DivCon.Simulation.Validation;

/// <summary>One measured cyclic test.</summary>
/// <param name="Workload">Its name (<c>subset</c>, <c>suite</c> or <c>custom</c>).</param>
/// <param name="Programs">Its programs.</param>
/// <param name="Schemes">The harness's result per scheme (NTT per program, ANTT, MNTT, STP, and the runs).</param>
public sealed record MeasuredWorkload(string Workload, IReadOnlyList<string> Programs, IReadOnlyList<SchemeResult> Schemes);
