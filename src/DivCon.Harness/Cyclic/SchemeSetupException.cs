namespace DivCon.Harness.Cyclic;

/// <summary>A scheme could not build its schedulers (for example pinning is impossible here); the test is abandoned.</summary>
/// <param name="scheme">The scheme that failed.</param>
/// <param name="message">What failed.</param>
/// <param name="inner">Why.</param>
public sealed class SchemeSetupException(string scheme, string message, Exception inner) : Exception(message, inner)
{
    /// <summary>The scheme that failed.</summary>
    public string Scheme { get; } = scheme;
}
