namespace DivCon.Harness.Progress;

/// <summary>Every line of a run's progress, each advance included, handed to a callback (tests; a log).</summary>
/// <param name="write">Receives each line.</param>
public sealed class LineProgress(Action<string> write) : IRunProgress
{
    /// <summary>Progress that goes nowhere.</summary>
    public static IRunProgress None { get; } = new LineProgress(_ => { });

    /// <inheritdoc/>
    public void Phase(string name, double total)
    {
    }

    /// <inheritdoc/>
    public void Advance(double done, string line) => write(line);

    /// <inheritdoc/>
    public void Line(string line) => write(line);
}
