namespace DivCon.Harness.Cyclic;

/// <summary>A scheme could not build its schedulers (for example pinning is impossible here); the test is abandoned.</summary>
public sealed class SchemeSetupException : Exception
{
    /// <summary>Creates the exception.</summary>
    public SchemeSetupException(string scheme, string message, Exception inner)
        : base(message, inner)
    {
        Scheme = scheme;
    }

    /// <summary>The scheme that failed.</summary>
    public string Scheme { get; }
}
