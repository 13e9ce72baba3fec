namespace DivCon.Metrics;

/// <summary>One repetition's system-level metrics for one scheme; null when some program recorded no run in it.</summary>
/// <param name="Repetition">1-based.</param>
/// <param name="Ntt">Per program: C^MP / C^SP of this repetition, or null.</param>
/// <param name="Antt">Mean NTT.</param>
/// <param name="Mntt">Max NTT.</param>
/// <param name="Stp">Σ NP.</param>
public sealed record RepetitionMetrics(int Repetition, IReadOnlyList<double?> Ntt, double? Antt, double? Mntt, double? Stp);
