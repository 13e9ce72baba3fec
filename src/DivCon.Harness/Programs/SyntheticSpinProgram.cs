namespace DivCon.Harness.Programs;

/// <summary>
/// A synthetic CPU-bound program (not divide-and-conquer) for tests and controlled loads: a fixed amount of integer work (a chain of 64-bit LCG/xorshift steps, no memory traffic) split into
/// <c>tasks</c> equal chains that run on the given scheduler, optionally after a serial chain that runs as one task
/// (an Amdahl fraction, so the program scales less). The work amount is deterministic; the result is the sum of the
/// chains' final states and is checked against the sequential computation (made by <see cref="CheckedJob.Initialize"/>).
/// </summary>
public sealed class SyntheticSpinProgram : CheckedJob
{
    private readonly long _iterationsPerTask;
    private readonly long _serialIterations;
    private readonly int _tasks;

    /// <summary>Creates the program.</summary>
    /// <param name="name">Catalogue name.</param>
    /// <param name="totalIterations">Total chain steps, serial part included; positive.</param>
    /// <param name="tasks">Parallel chains; positive.</param>
    /// <param name="serialFraction">Share of the steps done by one serial chain before the parallel ones, in [0, 1).</param>
    /// <param name="seed">Seeds the chains.</param>
    public SyntheticSpinProgram(string name, long totalIterations, int tasks, double serialFraction, int seed)
        : base(name, seed)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(totalIterations);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(tasks);
        if (!(serialFraction >= 0 && serialFraction < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(serialFraction), serialFraction, "The serial fraction must be in [0, 1).");
        }

        _tasks = tasks;
        _serialIterations = (long)(totalIterations * serialFraction);
        _iterationsPerTask = Math.Max(1, (totalIterations - _serialIterations) / tasks);
    }

    /// <summary>Total chain steps per size: about 0.05 s, 1.5 s and 15 s of one core here.</summary>
    public static long Iterations(WorkloadSize size) => size switch
    {
        WorkloadSize.Small => 25_000_000,
        WorkloadSize.Medium => 750_000_000,
        WorkloadSize.Thesis => 7_500_000_000,
        _ => throw new ArgumentOutOfRangeException(nameof(size), size, "Unknown problem size."),
    };

    /// <inheritdoc/>
    public override async Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        ulong serial = 0;
        if (_serialIterations > 0)
        {
            serial = await Task.Factory.StartNew(() => Chain(Seed, _serialIterations, cancellationToken), cancellationToken,
                TaskCreationOptions.DenyChildAttach, scheduler).ConfigureAwait(false);
        }

        var chains = new Task<ulong>[_tasks];
        for (int i = 0; i < _tasks; i++)
        {
            ulong start = Seed + serial + (ulong)i + 1;
            chains[i] = Task.Factory.StartNew(() => Chain(start, _iterationsPerTask, cancellationToken), cancellationToken,
                TaskCreationOptions.DenyChildAttach, scheduler);
        }

        ulong[] results = await Task.WhenAll(chains).ConfigureAwait(false);
        Record(results.Aggregate(serial, (sum, r) => sum + r));
    }

    /// <inheritdoc/>
    private protected override ulong Sequential()
    {
        ulong serial = _serialIterations > 0 ? Chain(Seed, _serialIterations, CancellationToken.None) : 0;
        ulong sum = serial;
        for (int i = 0; i < _tasks; i++)
        {
            sum += Chain(Seed + serial + (ulong)i + 1, _iterationsPerTask, CancellationToken.None);
        }

        return sum;
    }

    /// <summary>The work kernel: <paramref name="iterations"/> dependent LCG/xorshift steps from <paramref name="x"/> (about 2 ns each here), checking the token every 2^20.</summary>
    internal static ulong Chain(ulong x, long iterations, CancellationToken cancellationToken)
    {
        const long CheckEvery = 1 << 20;
        for (long done = 0; done < iterations; done += CheckEvery)
        {
            cancellationToken.ThrowIfCancellationRequested();
            long end = Math.Min(iterations, done + CheckEvery);
            for (long k = done; k < end; k++)
            {
                x = (x * 6364136223846793005UL) + 1442695040888963407UL;
                x ^= x >> 29;
            }
        }

        return x;
    }
}
