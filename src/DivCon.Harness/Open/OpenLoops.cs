namespace DivCon.Harness.Open;

/// <summary>
/// How the open workload's requests and reports write their parallel loops: as a .NET team writes them today
/// (<see cref="Parallel"/>), or with DivCon's chunked loops (<see cref="Chunked"/>), whose workers can move between
/// programs between two chunks. Every scheme runs the same code.
/// </summary>
public static class OpenLoops
{
    /// <summary><c>Parallel.For</c> / <c>Parallel.ForEach</c> with <c>ParallelOptions.TaskScheduler</c> (the default).</summary>
    public const string Parallel = "parallel";

    /// <summary><c>ChunkedLoops.ForAsync</c>, awaited.</summary>
    public const string Chunked = "chunked";

    /// <summary>The accepted names.</summary>
    public static IReadOnlyList<string> All { get; } = [Parallel, Chunked];

    /// <summary>True for <see cref="Chunked"/> (any case); false for <see cref="Parallel"/>.</summary>
    /// <exception cref="ArgumentException"><paramref name="loops"/> is neither.</exception>
    public static bool IsChunked(string loops) =>
        string.Equals(loops, Chunked, StringComparison.OrdinalIgnoreCase) ? true
        : string.Equals(loops, Parallel, StringComparison.OrdinalIgnoreCase) ? false
        : throw new ArgumentException($"Unknown loops '{loops}'; expected one of: {string.Join(", ", All)}.", nameof(loops));
}
