namespace DivCon.Simulation;

/// <summary>One repetition of a scheme's multiprogram phase (its own seed): per program NTT, and the scheme metrics.</summary>
/// <param name="Repetition">1-based index.</param>
/// <param name="Ntt">Per program, mean(C^MP) / mean(C^SP) of this repetition, or null when it recorded no run.</param>
/// <param name="Antt">Mean NTT, or null when some NTT is null.</param>
/// <param name="Mntt">Max NTT, or null.</param>
/// <param name="Stp">Σ 1 / NTT, or null.</param>
public sealed record SimulatedRepetition(int Repetition, IReadOnlyList<double?> Ntt, double? Antt, double? Mntt, double? Stp);
