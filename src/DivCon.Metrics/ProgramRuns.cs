namespace DivCon.Metrics;

/// <summary>One program's multiprogram runs under one scheme in one repetition (measured or simulated).</summary>
/// <param name="Seconds">The recorded runs' durations: the sample behind C^MP.</param>
/// <param name="Discarded">Runs still going at the time limit, discarded (thesis §5.4.1).</param>
public sealed record ProgramRuns(IReadOnlyList<double> Seconds, int Discarded);
