using DivCon.Harness.Programs;

namespace DivCon.Harness.Open;

/// <summary>
/// A job written as ordinary .NET code: one <c>Parallel.For</c> over <c>items</c> equal pieces of CPU work (the
/// synthetic spin kernel), with <see cref="ParallelOptions.TaskScheduler"/> set to the scheduler it is given, as a
/// request handler would write it. Each run computes the same value (the pieces' final states summed), checked by
/// <see cref="Verify"/> against the sequential computation. Runs may overlap: each run keeps its own result.
/// </summary>
public sealed class ParallelForJob : IWorkloadProgram
{
    private readonly int _items;
    private readonly long _iterationsPerItem;
    private readonly ulong _seed;
    private readonly CheckedRuns _checked;

    /// <summary>Creates the job.</summary>
    /// <param name="name">Its class name.</param>
    /// <param name="items">Iterations of the loop; positive.</param>
    /// <param name="iterationsPerItem">Spin steps per iteration; positive.</param>
    /// <param name="seed">Seeds the pieces.</param>
    public ParallelForJob(string name, int items, long iterationsPerItem, int seed)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(items);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(iterationsPerItem);
        Name = name;
        _items = items;
        _iterationsPerItem = iterationsPerItem;
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
        return Task.Factory.StartNew(() => _checked.Record(Loop(scheduler, cancellationToken)), cancellationToken, TaskCreationOptions.DenyChildAttach, scheduler);
    }

    /// <inheritdoc/>
    public void RunSequential() => _ = Sequential();

    /// <inheritdoc/>
    public void Verify() => _checked.Verify(Name);

    private ulong Loop(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        ulong sum = 0;
        Parallel.For(0, _items, new ParallelOptions { TaskScheduler = scheduler, CancellationToken = cancellationToken },
            () => 0UL,
            (i, _, local) => local + SyntheticSpinProgram.Chain(_seed + (ulong)i, _iterationsPerItem, cancellationToken),
            local => Interlocked.Add(ref sum, local));
        return sum;
    }

    private ulong Sequential()
    {
        ulong sum = 0;
        for (int i = 0; i < _items; i++)
        {
            sum += SyntheticSpinProgram.Chain(_seed + (ulong)i, _iterationsPerItem, CancellationToken.None);
        }

        return sum;
    }
}
