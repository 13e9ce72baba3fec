namespace DivCon.Harness.Cyclic;

/// <summary>The runs of one multiprogram phase of the cyclic test.</summary>
/// <param name="Programs">Program names, by index.</param>
/// <param name="LimitSeconds">The time limit of the phase, in seconds.</param>
/// <param name="Runs">Every run, recorded or discarded, in the order they ended.</param>
public sealed record PhaseResult(IReadOnlyList<string> Programs, double LimitSeconds, IReadOnlyList<RunRecord> Runs)
{
    /// <summary>
    /// Per program, the durations (seconds) of its recorded runs (the sample behind C^MP) and how many runs were
    /// discarded at the limit: what <see cref="CyclicAnalysis"/> takes.
    /// </summary>
    public IReadOnlyList<ProgramRuns> ProgramRuns() => [.. Enumerable.Range(0, Programs.Count).Select(i => new ProgramRuns(
        [.. Runs.Where(r => r.Program == i && r.Recorded).Select(r => r.DurationSeconds)], Runs.Count(r => r.Program == i && !r.Recorded)))];
}
