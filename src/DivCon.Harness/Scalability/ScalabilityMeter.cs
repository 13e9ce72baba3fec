using DivCon.Samples;

namespace DivCon.Harness.Scalability;

/// <summary>
/// Measures a program's scalability (thesis §5.3.2): the mean time of several sequential runs
/// (<see cref="ISampleProgram.RunSequential"/>) and of several parallel runs on a scheduler with c workers
/// (<see cref="ISampleProgram.RunParallelAsync"/>), and speedup = T_s / T_c (a ratio of means). Optionally at
/// several core counts (1, 2, 4, … N: a scalability table for hill climbing). Results are cached (see
/// <see cref="ScalabilityCache"/>) and reused: only what the cache lacks is measured.
/// </summary>
/// <remarks>
/// The scheduler comes from an injected factory (cores → scheduler), so the harness passes the work-stealing
/// scheduler and tests pass <see cref="TaskScheduler.Default"/> or a fake; a scheduler that is
/// <see cref="IDisposable"/> is disposed after its runs. The clock is injected too, so tests need no real timing.
/// Every parallel run is checked with <see cref="ISampleProgram.Verify"/>: a wrong result is not a measurement.
/// </remarks>
public sealed class ScalabilityMeter
{
    private readonly Func<int, TaskScheduler> _schedulerFactory;
    private readonly IMeasurementClock _clock;
    private readonly ScalabilityCache? _cache;
    private readonly MachineIdentity _machine;

    /// <summary>Creates a meter.</summary>
    /// <param name="schedulerFactory">Gives a scheduler with the given number of workers.</param>
    /// <param name="clock">The clock; <see langword="null"/> for the real one.</param>
    /// <param name="cache">Where results are kept; <see langword="null"/> to measure every time.</param>
    /// <param name="machine">The identity results are keyed by; <see langword="null"/> for <see cref="MachineIdentity.Current"/>.</param>
    public ScalabilityMeter(
        Func<int, TaskScheduler> schedulerFactory,
        IMeasurementClock? clock = null,
        ScalabilityCache? cache = null,
        MachineIdentity? machine = null)
    {
        ArgumentNullException.ThrowIfNull(schedulerFactory);
        _schedulerFactory = schedulerFactory;
        _clock = clock ?? StopwatchMeasurementClock.Instance;
        _cache = cache;
        _machine = machine ?? MachineIdentity.Current();
    }

    /// <summary>1, 2, 4, … up to <paramref name="cores"/>, with <paramref name="cores"/> itself last even when not a power of two.</summary>
    public static IReadOnlyList<int> PowersOfTwoUpTo(int cores)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(cores);
        var counts = new List<int>();
        for (int c = 1; c < cores; c *= 2)
        {
            counts.Add(c);
        }

        counts.Add(cores);
        return counts;
    }

    /// <summary>
    /// The program's speedup at each of <paramref name="coreCounts"/> (default: the machine's processor count only),
    /// from the cache when it has them all with at least <paramref name="runs"/> runs, otherwise measured (only the
    /// missing points, reusing a cached sequential time) and stored.
    /// </summary>
    /// <param name="program">The program, its input already made.</param>
    /// <param name="coreCounts">Positive, distinct core counts.</param>
    /// <param name="runs">Timed runs per point (positive); the thesis uses 5.</param>
    /// <param name="warmupRuns">Untimed runs before each point (not negative).</param>
    /// <param name="cancellationToken">Stops between runs and cancels a parallel run.</param>
    public async Task<ScalabilityMeasurement> MeasureAsync(
        ISampleProgram program,
        IReadOnlyList<int>? coreCounts = null,
        int runs = 5,
        int warmupRuns = 1,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(program);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(runs);
        ArgumentOutOfRangeException.ThrowIfNegative(warmupRuns);
        int[] counts = (coreCounts ?? [_machine.ProcessorCount]).ToArray();
        if (counts.Length == 0 || counts.Any(c => c <= 0) || counts.Distinct().Count() != counts.Length)
        {
            throw new ArgumentException("Core counts must be positive and distinct, and at least one is needed.", nameof(coreCounts));
        }

        string size = program.Size.ToString();
        ScalabilityMeasurement? cached = _cache?.Find(program.Name, size, _machine);
        if (cached is not null && cached.Runs < runs)
        {
            cached = null;
        }

        if (cached is not null && counts.All(c => cached.Points.Any(p => p.Cores == c)))
        {
            return cached;
        }

        double sequential = cached?.SequentialSeconds ?? await MeanSecondsAsync(
            () =>
            {
                program.RunSequential();
                return Task.CompletedTask;
            },
            runs,
            warmupRuns,
            cancellationToken);

        var points = new SortedDictionary<int, ScalabilityPoint>();
        foreach (ScalabilityPoint p in cached?.Points ?? [])
        {
            points[p.Cores] = p;
        }

        foreach (int c in counts.Where(c => !points.ContainsKey(c)))
        {
            TaskScheduler scheduler = _schedulerFactory(c) ?? throw new InvalidOperationException($"The scheduler factory returned null for {c} cores.");
            try
            {
                double parallel = await MeanSecondsAsync(
                    async () =>
                    {
                        await program.RunParallelAsync(scheduler, cancellationToken).ConfigureAwait(false);
                        program.Verify();
                    },
                    runs,
                    warmupRuns,
                    cancellationToken);
                points[c] = new ScalabilityPoint(c, parallel, sequential / parallel);
            }
            finally
            {
                (scheduler as IDisposable)?.Dispose();
            }
        }

        var result = new ScalabilityMeasurement(program.Name, size, _machine, runs, sequential, points.Values.ToArray(), DateTime.UtcNow);
        _cache?.Store(result);
        return result;
    }

    private async Task<double> MeanSecondsAsync(Func<Task> run, int runs, int warmupRuns, CancellationToken cancellationToken)
    {
        for (int i = 0; i < warmupRuns; i++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            await run().ConfigureAwait(false);
        }

        TimeSpan total = TimeSpan.Zero;
        for (int i = 0; i < runs; i++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            TimeSpan start = _clock.Now;
            await run().ConfigureAwait(false);
            total += _clock.Now - start;
        }

        if (total <= TimeSpan.Zero)
        {
            throw new InvalidOperationException("The runs took no measurable time; use a larger problem size.");
        }

        return total.TotalSeconds / runs;
    }
}
