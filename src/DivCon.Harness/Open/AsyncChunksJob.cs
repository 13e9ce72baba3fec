using DivCon.Harness.Programs;
using DivCon.Scheduling;

namespace DivCon.Harness.Open;

/// <summary>
/// A job written as an ordinary async method, the shape of a report that alternates I/O and computation: for each of
/// <c>chunks</c> chunks it awaits a short delay (standing in for I/O), then runs a <c>Parallel.ForEach</c> over the
/// chunk's items on the scheduler it is given (with <c>chunked</c>: awaits DivCon's
/// <see cref="ChunkedLoops.ForAsync(TaskScheduler, int, int, Action{int, int}, ChunkedLoopOptions?)"/> over them instead,
/// so a worker asked to move leaves between two chunks of the loop). Started on that scheduler, its await continuations come back to it.
/// Each run computes the same value, checked by <see cref="CheckedJob.Verify"/>. Runs may overlap.
/// </summary>
public sealed class AsyncChunksJob : CheckedJob
{
    private readonly int _chunks;
    private readonly int _itemsPerChunk;
    private readonly long _iterationsPerItem;
    private readonly TimeSpan _delay;
    private readonly bool _chunked;

    /// <summary>Creates the job.</summary>
    /// <param name="name">Its class name.</param>
    /// <param name="chunks">Chunks; positive.</param>
    /// <param name="itemsPerChunk">Items per chunk; positive.</param>
    /// <param name="iterationsPerItem">Spin steps per item; positive.</param>
    /// <param name="delay">The wait before each chunk (zero: a <c>Task.Yield</c>).</param>
    /// <param name="seed">Seeds the items.</param>
    /// <param name="chunked">Run each chunk as DivCon's awaited chunked loop instead of <c>Parallel.ForEach</c>.</param>
    public AsyncChunksJob(string name, int chunks, int itemsPerChunk, long iterationsPerItem, TimeSpan delay, int seed, bool chunked = false)
        : base(name, seed)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(chunks);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(itemsPerChunk);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(iterationsPerItem);
        ArgumentOutOfRangeException.ThrowIfLessThan(delay, TimeSpan.Zero);
        _chunks = chunks;
        _itemsPerChunk = itemsPerChunk;
        _iterationsPerItem = iterationsPerItem;
        _delay = delay;
        _chunked = chunked;
    }

    /// <inheritdoc/>
    public override Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        return Task.Factory.StartNew(() => RunOnSchedulerAsync(scheduler, cancellationToken), cancellationToken, TaskCreationOptions.DenyChildAttach, scheduler).Unwrap();
    }

    private async Task RunOnSchedulerAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        var options = new ParallelOptions { TaskScheduler = scheduler, CancellationToken = cancellationToken };
        ulong sum = 0;
        for (int c = 0; c < _chunks; c++)
        {
            if (_delay > TimeSpan.Zero)
            {
                await Task.Delay(_delay, cancellationToken); // the continuation comes back to TaskScheduler.Current
            }
            else
            {
                await Task.Yield();
            }

            int chunk = c;
            if (_chunked)
            {
                await ChunkedLoops.ForAsync(scheduler, 0, _itemsPerChunk, i => Interlocked.Add(ref sum, SyntheticSpinProgram.Chain(Start(chunk, i), _iterationsPerItem, cancellationToken)),
                    new ChunkedLoopOptions { CancellationToken = cancellationToken });
                continue;
            }

            Parallel.ForEach(Enumerable.Range(0, _itemsPerChunk), options,
                () => 0UL,
                (i, _, local) => local + SyntheticSpinProgram.Chain(Start(chunk, i), _iterationsPerItem, cancellationToken),
                local => Interlocked.Add(ref sum, local));
        }

        Record(sum);
    }

    private ulong Start(int chunk, int item) => Seed + (ulong)((chunk * _itemsPerChunk) + item);

    /// <inheritdoc/>
    private protected override ulong Sequential()
    {
        ulong sum = 0;
        for (int c = 0; c < _chunks; c++)
        {
            for (int i = 0; i < _itemsPerChunk; i++)
            {
                sum += SyntheticSpinProgram.Chain(Start(c, i), _iterationsPerItem, CancellationToken.None);
            }
        }

        return sum;
    }
}
