namespace DivCon.Scheduling;

/// <summary>How a loop of <see cref="ChunkedLoops"/> (or <c>ProgramHandle.ParallelFor</c> and its siblings) is cut and run.</summary>
public sealed class ChunkedLoopOptions
{
    /// <summary>
    /// The default target time of one chunk when <see cref="ChunkSize"/> is not set: 1 ms. A chunk is the unit a worker
    /// cannot leave, so it bounds how long a move waits on the loop; 1 ms is 1 % of the default repartitioning interval and
    /// a fraction of a short request's run time, while the per-chunk cost (a shared counter's atomic add, two timestamps,
    /// one volatile read: about 0.1-0.2 µs) stays below 0.02 % of it.
    /// </summary>
    public static readonly TimeSpan DefaultTargetChunkTime = TimeSpan.FromMilliseconds(1);

    /// <summary>
    /// Iterations per chunk; null (default): adaptive, each replica starting at one iteration and doubling (or halving)
    /// its chunk until a chunk takes about <see cref="TargetChunkTime"/>. Set it when iterations cost the same and that
    /// cost is known; at least 1.
    /// </summary>
    public int? ChunkSize { get; init; }

    /// <summary>The time an adaptive chunk aims at (<see cref="DefaultTargetChunkTime"/>); from 1 µs to 1 s.</summary>
    public TimeSpan TargetChunkTime { get; init; } = DefaultTargetChunkTime;

    /// <summary>
    /// Tasks running the loop at once (replicas); null (default): the scheduler's
    /// <see cref="TaskScheduler.MaximumConcurrencyLevel"/>, at most one per chunk. At least 1.
    /// </summary>
    public int? MaxDegreeOfParallelism { get; init; }

    /// <summary>Cancels the loop: no chunk starts after it is canceled, and the loop then ends canceled.</summary>
    public CancellationToken CancellationToken { get; init; }

    internal void Validate()
    {
        if (ChunkSize is < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(ChunkSize), ChunkSize, "ChunkSize must be at least 1 (or null for adaptive chunks).");
        }

        if (TargetChunkTime < TimeSpan.FromTicks(10) || TargetChunkTime > TimeSpan.FromSeconds(1))
        {
            throw new ArgumentOutOfRangeException(nameof(TargetChunkTime), TargetChunkTime, "TargetChunkTime must be between 1 µs and 1 s.");
        }

        if (MaxDegreeOfParallelism is < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(MaxDegreeOfParallelism), MaxDegreeOfParallelism, "MaxDegreeOfParallelism must be at least 1 (or null for the scheduler's concurrency level).");
        }
    }
}
