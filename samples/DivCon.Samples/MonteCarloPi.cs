using System.Runtime.CompilerServices;
using DivCon.Skeletons;

namespace DivCon.Samples;

/// <summary>
/// Monte Carlo π (§4.4.2): counts how many of N random points in the unit square fall in the inscribed circle of
/// radius 0.5; π ≈ 4 · inside / N. Point i is a pure function of (seed, i) (a SplitMix64 counter-based generator), so
/// the count does not depend on how the points are split: the parallel count must equal the baseline's exactly, and
/// the estimate must lie within <see cref="Tolerance"/> of π. Baseline: the same loop over all points.
/// </summary>
public sealed class MonteCarloPi : GranularDivCon<PointRange, long>, IDivConSample
{
    /// <summary>The catalogue name.</summary>
    public const string ProgramName = "montecarlopi";

    private const double UnitFromBits = 1.0 / (1UL << 53);
    private const ulong Gamma = 0x9E3779B97F4A7C15UL;

    private readonly int _branchingFactor;
    private readonly ulong _key;
    private readonly ExactResult _count = new();

    /// <summary>Creates the program for a named size (no data to make: the seed is the input).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public MonteCarloPi(ProblemSize size, int seed = SampleCatalog.DefaultSeed)
        : this(size, PointsFor(size), seed)
    {
    }

    internal MonteCarloPi(ProblemSize size, long points, int seed, int branchingFactor = 2)
        : base(points)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(points);
        ArgumentOutOfRangeException.ThrowIfLessThan(branchingFactor, 2);
        Size = size;
        Seed = seed;
        _branchingFactor = branchingFactor;
        _key = Mix((ulong)(uint)seed + Gamma);
    }

    /// <inheritdoc/>
    public string Name => ProgramName;

    /// <inheritdoc/>
    public ProblemSize Size { get; }

    /// <summary>The seed the points are generated from.</summary>
    public int Seed { get; }

    /// <inheritdoc/>
    public override int BranchingFactor => _branchingFactor;

    /// <summary>Points inside the circle in the last successful parallel run.</summary>
    public long InsideCount => _count.Parallel;

    /// <summary>The π estimate of the last successful parallel run.</summary>
    public double Estimate => 4.0 * _count.Parallel / ProblemSize;

    /// <summary>
    /// The allowed |estimate − π|: six standard deviations of the estimator, 6 · 4 · √(p(1 − p) / N) with p = π/4
    /// (a correct generator exceeds it with probability about 2·10⁻⁹).
    /// </summary>
    public double Tolerance => 24.0 * Math.Sqrt(Math.PI / 4 * (1 - Math.PI / 4) / ProblemSize);

    /// <summary>The number of points for each size: small 2^20, medium 2^27, thesis 2^30 (§4.4.2).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public static long PointsFor(ProblemSize size) =>
        SampleRun.BySize(size, 1L << 20, 1L << 27, 1L << 30);

    /// <inheritdoc/>
    public async Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken = default)
    {
        _count.StartParallel();
        _count.SetParallel(await RunAsync(scheduler, cancellationToken).ConfigureAwait(false));
    }

    /// <inheritdoc/>
    public void RunSequential() => _count.SetBaseline(CountInside(0, ProblemSize));

    /// <inheritdoc/>
    public void Verify()
    {
        _count.Verify(Name, RunSequential, static (parallel, baseline) => $"{parallel} points inside instead of {baseline}.");
        if (Math.Abs(Estimate - Math.PI) > Tolerance)
        {
            throw new InvalidOperationException($"{Name}: the estimate {Estimate} is further than {Tolerance} from π.");
        }
    }

    /// <inheritdoc/>
    protected override void InitializeCore()
    {
        // Nothing to make: point i is computed from (seed, i).
    }

    /// <inheritdoc/>
    protected override PointRange CreateRootProblem() => new(0, ProblemSize);

    /// <inheritdoc/>
    protected override long GetProblemSize(PointRange problem) => problem.Count;

    /// <summary>Divides the points evenly into min(branching factor, count) parts.</summary>
    protected override PointRange[] Split(PointRange problem, DivConContext context)
    {
        int parts = (int)Math.Min(_branchingFactor, Math.Max(1, problem.Count));
        var result = new PointRange[parts];
        long start = problem.Start;
        for (int i = 0; i < parts; i++)
        {
            long end = problem.Start + (long)((Int128)problem.Count * (i + 1) / parts);
            result[i] = new PointRange(start, end - start);
            start = end;
        }

        return result;
    }

    /// <inheritdoc/>
    protected override long ExecuteMuscle(PointRange problem, DivConContext context) => CountInside(problem.Start, problem.Count);

    /// <inheritdoc/>
    protected override long Merge(long[] subResults, DivConContext context)
    {
        long sum = 0;
        for (int i = 0; i < subResults.Length; i++)
        {
            sum += subResults[i];
        }

        return sum;
    }

    private long CountInside(long start, long count)
    {
        ulong key = _key;
        long inside = 0;
        long end = start + count;
        for (long i = start; i < end; i++)
        {
            // The SplitMix64 sequence from state key: output n is Mix(key + n · γ); point i uses outputs 2i and 2i + 1.
            ulong state = key + ((ulong)i << 1) * Gamma;
            double x = (Mix(state) >> 11) * UnitFromBits - 0.5;
            double y = (Mix(state + Gamma) >> 11) * UnitFromBits - 0.5;
            if (x * x + y * y <= 0.25)
            {
                inside++;
            }
        }

        return inside;
    }

    // SplitMix64's output function (Steele, Lea, Flood 2014): a bijective mix with good avalanche.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Mix(ulong z)
    {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }
}
