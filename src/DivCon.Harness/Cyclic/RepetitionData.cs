namespace DivCon.Harness.Cyclic;

/// <summary>
/// The raw timings of one repetition of a cyclic test: per program the single-program durations, and per scheme the
/// multiprogram phase. Input of <see cref="CyclicAnalysis"/>.
/// </summary>
/// <param name="SingleProgramSeconds">Per program index: the C^SP run durations.</param>
/// <param name="Phases">Per scheme name: the multiprogram phase.</param>
public sealed record RepetitionData(IReadOnlyList<IReadOnlyList<double>> SingleProgramSeconds, IReadOnlyDictionary<string, PhaseResult> Phases);
