namespace DivCon.Harness.Cyclic;

/// <summary>
/// A program failed (threw, or did not finish / stop in time) during a cyclic or symmetric test. The test is abandoned
/// as a whole: no result is produced from it.
/// </summary>
/// <param name="program">The program that failed.</param>
/// <param name="message">What failed.</param>
/// <param name="inner">Why, when an exception said so.</param>
public sealed class ProgramRunException(string program, string message, Exception? inner = null) : Exception(message, inner)
{
    /// <summary>The program that failed.</summary>
    public string Program { get; } = program;
}
