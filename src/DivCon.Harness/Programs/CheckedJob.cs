namespace DivCon.Harness.Programs;

/// <summary>
/// A program (the synthetic spin program, an open workload's jobs) whose every parallel run must compute the sequential
/// value: its name and seed, the run count and wrong-run count (thread-safe: runs may overlap) and <see cref="Verify"/>;
/// a program adds its parallel and its sequential run.
/// </summary>
public abstract class CheckedJob : IWorkloadProgram
{
    private readonly Lazy<ulong> _expected;
    private long _wrongRuns;
    private long _runs;

    private protected CheckedJob(string name, int seed)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        Name = name;
        Seed = (ulong)seed * 0x9E3779B97F4A7C15UL;
        _expected = new(Sequential);
    }

    /// <inheritdoc/>
    public string Name { get; }

    /// <summary>Where the job's pieces start their spin chains.</summary>
    private protected ulong Seed { get; }

    /// <summary>Computes the expected value now (outside any timed run).</summary>
    public void Initialize() => _ = _expected.Value;

    /// <inheritdoc/>
    public abstract Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken);

    /// <inheritdoc/>
    public void RunSequential() => _ = Sequential();

    /// <summary>Throws unless at least one parallel run completed and none differed from the sequential value.</summary>
    public void Verify()
    {
        if (Interlocked.Read(ref _runs) == 0)
        {
            throw new InvalidOperationException($"'{Name}' has not completed a parallel run yet.");
        }

        if (Interlocked.Read(ref _wrongRuns) > 0)
        {
            throw new InvalidOperationException($"'{Name}': {_wrongRuns} of {_runs} parallel runs differ from the sequential result {_expected.Value}.");
        }
    }

    /// <summary>The job's value computed on the calling thread.</summary>
    private protected abstract ulong Sequential();

    /// <summary>Records one parallel run's result.</summary>
    private protected void Record(ulong result)
    {
        Interlocked.Increment(ref _runs);
        if (result != _expected.Value)
        {
            Interlocked.Increment(ref _wrongRuns);
        }
    }
}
