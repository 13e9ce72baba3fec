namespace DivCon.Metrics;

/// <summary>
/// The raw run times of one repetition of a cyclic test: per program the single-program durations (C^SP), and per
/// scheme each program's multiprogram runs. The input of <see cref="CyclicAnalysis"/>.
/// </summary>
/// <param name="CspSeconds">Per program index: the C^SP run durations.</param>
/// <param name="Schemes">Per scheme name: per program index, its runs.</param>
public sealed record RepetitionRuns(IReadOnlyList<IReadOnlyList<double>> CspSeconds, IReadOnlyDictionary<string, IReadOnlyList<ProgramRuns>> Schemes);
