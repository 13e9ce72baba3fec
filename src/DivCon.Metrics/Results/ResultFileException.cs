namespace DivCon.Metrics.Results;

/// <summary>A file that is not a result this build can read (not JSON, another kind, an older shape); the message is one line.</summary>
/// <param name="message">The one line.</param>
/// <param name="inner">Why, when an exception said so.</param>
public sealed class ResultFileException(string message, Exception? inner = null) : Exception(message, inner);
