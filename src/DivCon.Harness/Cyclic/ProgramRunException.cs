namespace DivCon.Harness.Cyclic;

/// <summary>
/// A program failed (threw, or did not finish / stop in time) during a cyclic or symmetric test. The test is abandoned
/// as a whole: no result is produced from it.
/// </summary>
public sealed class ProgramRunException : Exception
{
    /// <summary>Creates the exception.</summary>
    public ProgramRunException(string program, string message, Exception? inner = null)
        : base(message, inner)
    {
        Program = program;
    }

    /// <summary>The program that failed.</summary>
    public string Program { get; }
}
