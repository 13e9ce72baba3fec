namespace DivCon.Metrics;

/// <summary>
/// The raw run times of one independent repetition of a cyclic test (a process invocation, or a simulated seed): per
/// program the single-program durations (C^SP), and per scheme each program's multiprogram runs. The input of
/// <see cref="CyclicAnalysis"/>; every scheme of one repetition shares its C^SP, so repetitions are blocks.
/// </summary>
/// <param name="CspSeconds">Per program index: the C^SP run durations (at least one).</param>
/// <param name="Schemes">Per scheme name: per program index, its runs.</param>
public sealed record RepetitionRuns(IReadOnlyList<IReadOnlyList<double>> CspSeconds, IReadOnlyDictionary<string, IReadOnlyList<ProgramRuns>> Schemes);
