namespace DivCon.Harness.Cyclic;

/// <summary>The runs of one multiprogram phase of the cyclic test.</summary>
public sealed class PhaseResult
{
    internal PhaseResult(IReadOnlyList<string> programs, double limitSeconds, IReadOnlyList<RunRecord> runs)
    {
        Programs = programs;
        LimitSeconds = limitSeconds;
        Runs = runs;
    }

    /// <summary>Program names, by index.</summary>
    public IReadOnlyList<string> Programs { get; }

    /// <summary>The time limit of the phase, in seconds.</summary>
    public double LimitSeconds { get; }

    /// <summary>Every run, recorded or discarded, in the order they ended.</summary>
    public IReadOnlyList<RunRecord> Runs { get; }

    /// <summary>The durations (seconds) of program <paramref name="program"/>'s recorded runs: the sample behind C^MP.</summary>
    public IReadOnlyList<double> RecordedDurations(int program) =>
        Runs.Where(r => r.Program == program && r.Recorded).Select(r => r.DurationSeconds).ToArray();

    /// <summary>Per program, its recorded durations and discarded runs: what <see cref="CyclicAnalysis"/> takes.</summary>
    public IReadOnlyList<ProgramRuns> ProgramRuns() =>
        Enumerable.Range(0, Programs.Count).Select(i => new ProgramRuns(RecordedDurations(i), DiscardedCount(i))).ToArray();

    /// <summary>How many runs of program <paramref name="program"/> were discarded at the limit.</summary>
    public int DiscardedCount(int program) => Runs.Count(r => r.Program == program && !r.Recorded);
}
