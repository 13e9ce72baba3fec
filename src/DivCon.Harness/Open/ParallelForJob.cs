using DivCon.Harness.Programs;

namespace DivCon.Harness.Open;

/// <summary>
/// A job written as ordinary .NET code: one <c>Parallel.For</c> over <c>items</c> equal pieces of CPU work (the
/// synthetic spin kernel), with <see cref="ParallelOptions.TaskScheduler"/> set to the scheduler it is given, as a
/// request handler would write it. Each run computes the same value (the pieces' final states summed), checked by
/// <see cref="CheckedJob.Verify"/> against the sequential computation. Runs may overlap: each run keeps its own result.
/// </summary>
public sealed class ParallelForJob : CheckedJob
{
    private readonly int _items;
    private readonly long _iterationsPerItem;

    /// <summary>Creates the job.</summary>
    /// <param name="name">Its class name.</param>
    /// <param name="items">Iterations of the loop; positive.</param>
    /// <param name="iterationsPerItem">Spin steps per iteration; positive.</param>
    /// <param name="seed">Seeds the pieces.</param>
    public ParallelForJob(string name, int items, long iterationsPerItem, int seed)
        : base(name, seed)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(items);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(iterationsPerItem);
        _items = items;
        _iterationsPerItem = iterationsPerItem;
    }

    /// <inheritdoc/>
    public override Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        return Task.Factory.StartNew(() => Record(Loop(scheduler, cancellationToken)), cancellationToken, TaskCreationOptions.DenyChildAttach, scheduler);
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
    private protected override ulong Sequential()
    {
        ulong sum = 0;
        for (int i = 0; i < _items; i++)
        {
            sum += SyntheticSpinProgram.Chain(Seed + (ulong)i, _iterationsPerItem, CancellationToken.None);
        }

        return sum;
    }
}
