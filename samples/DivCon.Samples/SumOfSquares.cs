using DivCon.Skeletons;

namespace DivCon.Samples;

/// <summary>
/// Sum of squares (§4.4.1): a map-reduce over seeded random integers in [0, 1024); Map squares, Reduce adds. The
/// sum is exact (64-bit), so the parallel result must equal the baseline exactly. Baseline: a plain loop.
/// </summary>
public sealed class SumOfSquares : MapReduce<int, long>, IDivConSample
{
    /// <summary>The catalogue name.</summary>
    public const string ProgramName = "sumofsquares";

    private readonly ExactResult _sum = new();

    /// <summary>Creates the program for a named size; the data is made on <see cref="TestableDivCon{TParam, TResult}.Initialize"/> or the first run.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public SumOfSquares(ProblemSize size, int seed = SampleCatalog.DefaultSeed)
        : this(size, LengthFor(size), seed)
    {
    }

    internal SumOfSquares(ProblemSize size, int length, int seed, int branchingFactor = 2)
        : base(length, seed, branchingFactor)
    {
        Size = size;
    }

    /// <inheritdoc/>
    public string Name => ProgramName;

    /// <inheritdoc/>
    public ProblemSize Size { get; }

    /// <summary>The result of the last successful parallel run.</summary>
    public long Result => _sum.Parallel;

    /// <summary>The number of integers for each size: small 2^20, medium 2^27 (memory-bound: about 0.1–0.3 s per parallel run on 2 cores; larger would exceed the thesis size), thesis 2^27 (§4.4.1).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public static int LengthFor(ProblemSize size) =>
        SampleRun.BySize(size, 1 << 20, 1 << 27, 1 << 27);

    /// <inheritdoc/>
    public async Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken = default)
    {
        _sum.StartParallel();
        _sum.SetParallel(await RunAsync(scheduler, cancellationToken).ConfigureAwait(false));
    }

    /// <inheritdoc/>
    public void RunSequential()
    {
        Initialize();
        int[] elements = SourceElements;
        long sum = 0;
        for (int i = 0; i < elements.Length; i++)
        {
            sum += (long)elements[i] * elements[i];
        }

        _sum.SetBaseline(sum);
    }

    /// <inheritdoc/>
    public void Verify() =>
        _sum.Verify(Name, RunSequential, static (parallel, baseline) => $"{parallel} instead of {baseline}.");

    /// <inheritdoc/>
    protected override int[] GenerateElements(int length, int seed)
    {
        var random = new Random(seed);
        var elements = new int[length];
        for (int i = 0; i < elements.Length; i++)
        {
            elements[i] = random.Next(0, 1024);
        }

        return elements;
    }

    /// <inheritdoc/>
    protected override long Map(int element) => (long)element * element;

    /// <inheritdoc/>
    protected override long Reduce(long first, long second) => first + second;
}
