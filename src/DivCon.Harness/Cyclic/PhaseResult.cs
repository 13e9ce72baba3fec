namespace DivCon.Harness.Cyclic;

/// <summary>The runs of one multiprogram phase of the cyclic test.</summary>
/// <param name="Programs">Program names, by index.</param>
/// <param name="LimitSeconds">The time limit of the phase, in seconds.</param>
/// <param name="Runs">Every run, recorded or discarded, in the order they ended.</param>
public sealed record PhaseResult(IReadOnlyList<string> Programs, double LimitSeconds, IReadOnlyList<RunRecord> Runs)
{
    /// <summary>The durations (seconds) of program <paramref name="program"/>'s recorded runs: the sample behind C^MP.</summary>
    public IReadOnlyList<double> RecordedDurations(int program) =>
        Runs.Where(r => r.Program == program && r.Recorded).Select(r => r.DurationSeconds).ToArray();

    /// <summary>Per program, its recorded durations and discarded runs: what <see cref="CyclicAnalysis"/> takes.</summary>
    public IReadOnlyList<ProgramRuns> ProgramRuns() =>
        Enumerable.Range(0, Programs.Count).Select(i => new ProgramRuns(RecordedDurations(i), DiscardedCount(i))).ToArray();

    /// <summary>How many runs of program <paramref name="program"/> were discarded at the limit.</summary>
    public int DiscardedCount(int program) => Runs.Count(r => r.Program == program && !r.Recorded);
}
