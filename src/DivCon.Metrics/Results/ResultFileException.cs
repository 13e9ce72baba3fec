namespace DivCon.Metrics.Results;

/// <summary>A file that is not a result this build can read (not JSON, another kind, an older shape); the message is one line.</summary>
public sealed class ResultFileException : Exception
{
    /// <summary>Creates the exception.</summary>
    public ResultFileException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }
}
