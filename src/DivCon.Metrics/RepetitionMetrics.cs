namespace DivCon.Metrics;

/// <summary>
/// One invocation's (or simulated seed's) system-level metrics for one scheme, from that invocation's own mean C^MP and
/// mean C^SP; null when some program recorded no run in it. The paired comparisons are over these.
/// </summary>
/// <param name="Repetition">The invocation, 1-based.</param>
/// <param name="Ntt">Per program: C^MP / C^SP of this invocation, or null.</param>
/// <param name="Antt">Mean NTT.</param>
/// <param name="Mntt">Max NTT.</param>
/// <param name="Stp">Σ NP.</param>
public sealed record RepetitionMetrics(int Repetition, IReadOnlyList<double?> Ntt, double? Antt, double? Mntt, double? Stp);
