using System.Runtime.CompilerServices;
using DivCon.Scheduling;

namespace DivCon.Skeletons.Sequences;

/// <summary>
/// Parallel processing of an array on a given <see cref="TaskScheduler"/>, with seed 004's three window algorithms
/// (<see cref="WindowMode"/>). The array is cut into chunks of <see cref="SequenceOptions.Grain"/> elements, one task
/// per chunk; a window of m elements is W = ⌊m / grain⌋ chunks, so a chunk never straddles the window's edge and the
/// window constraint holds for every element, not only at chunk boundaries.
/// </summary>
public static class SequenceSkeleton
{
    /// <summary>Cache size assumed when the topology does not report one (a common last-level cache size).</summary>
    public const long FallbackCacheBytes = 8L * 1024 * 1024;

    /// <summary>
    /// The default window size in elements: half of <paramref name="cacheBytes"/> (the other half for the output and
    /// everything else, as seed 004 §5 sizes its window so that m cells fit in the shared cache) divided by
    /// <paramref name="bytesPerElement"/>, and at least <paramref name="grain"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">A non-positive argument.</exception>
    public static int DefaultWindowSize(long cacheBytes, int bytesPerElement, int grain)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(cacheBytes);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(bytesPerElement);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(grain);
        long m = cacheBytes / 2 / bytesPerElement;
        return (int)Math.Clamp(m, grain, int.MaxValue);
    }

    /// <summary>The largest last-level cache of this machine (<see cref="CpuTopology.Detect"/>), or <see cref="FallbackCacheBytes"/>.</summary>
    public static long DetectLastLevelCacheBytes()
    {
        long? size = CpuTopology.Detect().CacheGroups.Max(g => g.SizeBytes);
        return size is > 0 ? size.Value : FallbackCacheBytes;
    }

    /// <summary>
    /// Runs <paramref name="body"/>(index, element) once for every element of <paramref name="source"/>, on
    /// <paramref name="scheduler"/>, under the window of <paramref name="options"/>.
    /// </summary>
    /// <returns>
    /// A task that completes when every started chunk has finished: faulted with every body exception (no new chunk
    /// starts after the first fault) and with the scheduler's exception if it refuses a chunk's task, canceled if
    /// <paramref name="cancellationToken"/> stopped it, otherwise successful.
    /// </returns>
    /// <exception cref="ArgumentNullException">A null argument.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An undefined mode, a grain below 1, or a window smaller than the grain.</exception>
    public static Task ForEachAsync<T>(
        T[] source, Action<int, T> body, TaskScheduler scheduler, SequenceOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(body);
        return Run(
            source.Length,
            (from, to) =>
            {
                for (int i = from; i < to; i++)
                {
                    body(i, source[i]);
                }
            },
            scheduler,
            options,
            Unsafe.SizeOf<T>(),
            cancellationToken);
    }

    /// <summary>
    /// Runs <paramref name="body"/>(from, to) once for each chunk [from, to) of the indexes 0 … <paramref name="length"/> − 1,
    /// on <paramref name="scheduler"/>, under the window of <paramref name="options"/>: the same chunks, window, faults and
    /// cancellation as <see cref="ForEachAsync{T}"/>, with one delegate call per chunk instead of one per element (for
    /// bodies so cheap that the call would dominate, e.g. a streaming transform over primitive arrays).
    /// </summary>
    /// <param name="length">The number of indexes, at least 0.</param>
    /// <param name="body">Called with each chunk's first index and the index after its last one.</param>
    /// <param name="scheduler">Where the chunks run.</param>
    /// <param name="options">Window mode, size and grain; the default window size needs
    /// <see cref="SequenceOptions.BytesPerElement"/> (8 is assumed when it is null).</param>
    /// <param name="cancellationToken">Stops chunks that have not started.</param>
    /// <returns>As <see cref="ForEachAsync{T}"/>.</returns>
    /// <exception cref="ArgumentNullException">A null argument.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A negative length, an undefined mode, a grain below 1, or a window smaller than the grain.</exception>
    public static Task ForEachRangeAsync(
        int length, Action<int, int> body, TaskScheduler scheduler, SequenceOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        ArgumentNullException.ThrowIfNull(body);
        return Run(length, body, scheduler, options, sizeof(long), cancellationToken);
    }

    private static Task Run(
        int length, Action<int, int> chunkBody, TaskScheduler scheduler, SequenceOptions? options, int defaultBytesPerElement, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        options ??= new SequenceOptions();
        if (!Enum.IsDefined(options.Mode))
        {
            // An undefined mode would never release a chunk after the first window: the run would never complete.
            throw new ArgumentOutOfRangeException(nameof(options), options.Mode, "Mode must be None, Static or Sliding.");
        }

        if (options.Grain < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(options), $"Grain must be at least 1; got {options.Grain}.");
        }

        if (options.BytesPerElement is < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(options), $"BytesPerElement must be at least 1 when given; got {options.BytesPerElement}.");
        }

        int window = options.WindowSize
            ?? (options.Mode == WindowMode.None ? options.Grain
                : DefaultWindowSize(DetectLastLevelCacheBytes(), options.BytesPerElement ?? defaultBytesPerElement, options.Grain));
        if (options.Mode != WindowMode.None && window < options.Grain)
        {
            throw new ArgumentOutOfRangeException(nameof(options), $"WindowSize must be at least Grain ({options.Grain}); got {window}.");
        }

        if (length == 0)
        {
            return cancellationToken.IsCancellationRequested ? Task.FromCanceled(cancellationToken) : Task.CompletedTask;
        }

        var run = new SequenceRun(length, chunkBody, scheduler, options.Mode, options.Grain, window, cancellationToken);
        run.Start();
        return run.Completion;
    }

    /// <summary>
    /// Returns f(element) for every element of <paramref name="source"/>, computed as by
    /// <see cref="ForEachAsync{T}"/> (same window, grain, faults and cancellation).
    /// </summary>
    /// <exception cref="ArgumentNullException">A null argument.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An undefined mode, a grain below 1, or a window smaller than the grain.</exception>
    public static async Task<TResult[]> TransformAsync<T, TResult>(
        T[] source, Func<T, TResult> selector, TaskScheduler scheduler, SequenceOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(selector);
        var results = new TResult[source.Length];
        // Each index is written by exactly one body call (ForEachAsync's exactly-once), and the awaited completion
        // happens after every body, so the array is complete and visible when returned.
        await ForEachAsync(source, (i, x) => results[i] = selector(x), scheduler, options, cancellationToken).ConfigureAwait(false);
        return results;
    }
}
