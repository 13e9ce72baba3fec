namespace DivCon.Harness.Open;

/// <summary>One job of an open workload: when it arrives (seconds after the run starts) and its class.</summary>
/// <param name="AtSeconds">Arrival time, seconds from the start of the run; non-negative.</param>
/// <param name="Class">The job class's name.</param>
public sealed record Arrival(double AtSeconds, string Class);
