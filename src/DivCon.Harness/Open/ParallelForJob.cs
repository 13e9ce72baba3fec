using DivCon.Harness.Programs;
using DivCon.Scheduling;

namespace DivCon.Harness.Open;

/// <summary>
/// A job written as ordinary .NET code: one <c>Parallel.For</c> over <c>items</c> equal pieces of CPU work (the
/// synthetic spin kernel), with <see cref="ParallelOptions.TaskScheduler"/> set to the scheduler it is given, as a
/// request handler would write it; or, with <c>chunked</c>, the same loop as DivCon's
/// <see cref="ChunkedLoops.ForAsync(TaskScheduler, int, int, Action{int, int}, ChunkedLoopOptions?)"/>, awaited, so a
/// worker asked to move leaves it between two chunks. Each run computes the same value (the pieces' final states summed), checked by
/// <see cref="CheckedJob.Verify"/> against the sequential computation. Runs may overlap: each run keeps its own result.
/// </summary>
public sealed class ParallelForJob : CheckedJob
{
    private readonly int _items;
    private readonly long _iterationsPerItem;
    private readonly bool _chunked;

    /// <summary>Creates the job.</summary>
    /// <param name="name">Its class name.</param>
    /// <param name="items">Iterations of the loop; positive.</param>
    /// <param name="iterationsPerItem">Spin steps per iteration; positive.</param>
    /// <param name="seed">Seeds the pieces.</param>
    /// <param name="chunked">Run the loop as DivCon's awaited chunked loop instead of <c>Parallel.For</c>.</param>
    public ParallelForJob(string name, int items, long iterationsPerItem, int seed, bool chunked = false)
        : base(name, seed)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(items);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(iterationsPerItem);
        _items = items;
        _iterationsPerItem = iterationsPerItem;
        _chunked = chunked;
    }

    /// <inheritdoc/>
    public override Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        return _chunked
            ? Task.Factory.StartNew(() => ChunkedLoopAsync(scheduler, cancellationToken), cancellationToken, TaskCreationOptions.DenyChildAttach, scheduler).Unwrap()
            : Task.Factory.StartNew(() => Record(Loop(scheduler, cancellationToken)), cancellationToken, TaskCreationOptions.DenyChildAttach, scheduler);
    }

    private async Task ChunkedLoopAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        var sum = new ulong[1];
        await ChunkedLoops.ForAsync(scheduler, 0, _items,
            (from, to) => Interlocked.Add(ref sum[0], Range(from, to, cancellationToken)),
            new ChunkedLoopOptions { CancellationToken = cancellationToken });
        Record(sum[0]);
    }

    private ulong Range(int from, int to, CancellationToken cancellationToken)
    {
        ulong local = 0;
        for (int i = from; i < to; i++)
        {
            local += SyntheticSpinProgram.Chain(Seed + (ulong)i, _iterationsPerItem, cancellationToken);
        }

        return local;
    }

    private ulong Loop(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        ulong sum = 0;
        Parallel.For(0, _items, new ParallelOptions { TaskScheduler = scheduler, CancellationToken = cancellationToken },
            () => 0UL,
            (i, _, local) => local + SyntheticSpinProgram.Chain(Seed + (ulong)i, _iterationsPerItem, cancellationToken),
            local => Interlocked.Add(ref sum, local));
        return sum;
    }

    /// <inheritdoc/>
    private protected override ulong Sequential() => Range(0, _items, CancellationToken.None);
}
