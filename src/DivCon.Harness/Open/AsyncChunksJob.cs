using DivCon.Harness.Programs;

namespace DivCon.Harness.Open;

/// <summary>
/// A job written as an ordinary async method, the shape of a report that alternates I/O and computation: for each of
/// <c>chunks</c> chunks it awaits a short delay (standing in for I/O), then runs a <c>Parallel.ForEach</c> over the
/// chunk's items on the scheduler it is given. Started on that scheduler, its await continuations come back to it.
/// Each run computes the same value, checked by <see cref="Verify"/>. Runs may overlap.
/// </summary>
public sealed class AsyncChunksJob : IWorkloadProgram
{
    private readonly int _chunks;
    private readonly int _itemsPerChunk;
    private readonly long _iterationsPerItem;
    private readonly TimeSpan _delay;
    private readonly ulong _seed;
    private readonly CheckedRuns _checked;

    /// <summary>Creates the job.</summary>
    /// <param name="name">Its class name.</param>
    /// <param name="chunks">Chunks; positive.</param>
    /// <param name="itemsPerChunk">Items per chunk; positive.</param>
    /// <param name="iterationsPerItem">Spin steps per item; positive.</param>
    /// <param name="delay">The wait before each chunk (zero: a <c>Task.Yield</c>).</param>
    /// <param name="seed">Seeds the items.</param>
    public AsyncChunksJob(string name, int chunks, int itemsPerChunk, long iterationsPerItem, TimeSpan delay, int seed)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(chunks);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(itemsPerChunk);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(iterationsPerItem);
        ArgumentOutOfRangeException.ThrowIfLessThan(delay, TimeSpan.Zero);
        Name = name;
        _chunks = chunks;
        _itemsPerChunk = itemsPerChunk;
        _iterationsPerItem = iterationsPerItem;
        _delay = delay;
        _seed = (ulong)seed * 0x9E3779B97F4A7C15UL;
        _checked = new CheckedRuns(Sequential);
    }

    /// <inheritdoc/>
    public string Name { get; }

    /// <inheritdoc/>
    public void Initialize() => _checked.Prepare();

    /// <inheritdoc/>
    public Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        return Task.Factory.StartNew(() => RunOnSchedulerAsync(scheduler, cancellationToken), cancellationToken, TaskCreationOptions.DenyChildAttach, scheduler).Unwrap();
    }

    /// <inheritdoc/>
    public void RunSequential() => _ = Sequential();

    /// <inheritdoc/>
    public void Verify() => _checked.Verify(Name);

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
            Parallel.ForEach(Enumerable.Range(0, _itemsPerChunk), options,
                () => 0UL,
                (i, _, local) => local + SyntheticSpinProgram.Chain(Start(chunk, i), _iterationsPerItem, cancellationToken),
                local => Interlocked.Add(ref sum, local));
        }

        _checked.Record(sum);
    }

    private ulong Start(int chunk, int item) => _seed + (ulong)((chunk * _itemsPerChunk) + item);

    private ulong Sequential()
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
