namespace DivCon.Harness.Open;

/// <summary>One repetition: its arrival sequence and every scheme's run of it, in the order they ran.</summary>
/// <param name="Repetition">0-based.</param>
/// <param name="Arrivals">The jobs, by arrival time.</param>
/// <param name="Runs">One per scheme, in the order run (shuffled per repetition from the seed).</param>
public sealed record OpenRepetition(int Repetition, IReadOnlyList<Arrival> Arrivals, IReadOnlyList<OpenRun> Runs);
