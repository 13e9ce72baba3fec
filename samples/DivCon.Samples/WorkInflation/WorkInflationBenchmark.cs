using System.Runtime.CompilerServices;
using DivCon.Skeletons;

namespace DivCon.Samples.WorkInflation;

/// <summary>
/// The work-inflation microbenchmark of seed 000 §4 on the D&amp;C skeleton: R passes over an array of M 64-bit
/// cells; a pass is a parallel loop over visit indices [0, M) split by the skeleton down to the granularity, and visit
/// i reads cell c(i) = (i·G + ⌊i·G/M⌋) mod M, performs L additions with its value and writes the result back. G = 1
/// walks the array; G = 32 touches a new cache line at every visit, so large arrays become memory-bound and their
/// parallel runs inflate (the memory effects a factored speedup plot shows as a gap between idle-time-specific and
/// actual speedups). Passes run one after another (a pass's visits are independent, consecutive passes are not).
/// Each run starts from the same seeded input and writes its own output array, so the parallel result must equal the
/// sequential baseline's bit for bit.
/// </summary>
public sealed class WorkInflationBenchmark : GranularDivCon<PointRange, long>, IDivConSample
{
    /// <summary>The catalogue name (not in <see cref="SampleCatalog.Names"/>: it is an extra, not part of the thesis's workloads).</summary>
    public const string ProgramName = "workinflation";

    private readonly int _seed;
    private long[] _source = [];
    private long[] _output = [];
    private long[] _baselineOutput = [];
    private long[] _current = [];
    private readonly ExactResult _checksum = new();
    private readonly RunGuard _guard = new();

    /// <summary>Creates the benchmark with the parameters of <see cref="WorkInflationParameters.For"/> for <paramref name="size"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public WorkInflationBenchmark(ProblemSize size, int seed = SampleCatalog.DefaultSeed)
        : this(size, WorkInflationParameters.For(size), seed)
    {
    }

    /// <summary>Creates the benchmark with explicit M, L, G, R; the array is made on <see cref="TestableDivCon{TParam, TResult}.Initialize"/> or the first run.</summary>
    /// <exception cref="ArgumentException">The parameters are invalid (every problem is listed).</exception>
    public WorkInflationBenchmark(ProblemSize size, WorkInflationParameters parameters, int seed = SampleCatalog.DefaultSeed)
        : base(CheckedArraySize(parameters))
    {
        Size = size;
        Parameters = parameters;
        _seed = seed;
    }

    /// <inheritdoc/>
    public string Name => ProgramName;

    /// <inheritdoc/>
    public ProblemSize Size { get; }

    /// <summary>M, L, G, R.</summary>
    public WorkInflationParameters Parameters { get; }

    /// <inheritdoc/>
    public override int BranchingFactor => 2;

    /// <summary>The checksum (sum of the output cells, wrapping) of the last successful parallel run.</summary>
    public long Result => _checksum.Parallel;

    /// <summary>One parallel run: the passes one after another, each a run of the skeleton on <paramref name="scheduler"/>.</summary>
    /// <exception cref="InvalidOperationException">Another parallel run of this instance is in progress (its runs share the cells).</exception>
    public async Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        using RunGuard.Exit exit = _guard.Enter(Name);
        _checksum.StartParallel();
        Initialize();
        long checksum = 0;
        for (int pass = 0; pass < Parameters.Repeats; pass++)
        {
            // Pass 0 reads the input and writes the output array; later passes update the output in place. The
            // await orders the passes: every visit of pass k completes before pass k + 1 starts.
            _current = pass == 0 ? _source : _output;
            checksum = await RunAsync(scheduler, cancellationToken).ConfigureAwait(false);
        }

        _checksum.SetParallel(checksum);
    }

    /// <inheritdoc/>
    public void RunSequential()
    {
        Initialize();
        int m = Parameters.ArraySize;
        long checksum = 0;
        for (int pass = 0; pass < Parameters.Repeats; pass++)
        {
            checksum = Visit(pass == 0 ? _source : _baselineOutput, _baselineOutput, 0, m);
        }

        _checksum.SetBaseline(checksum);
    }

    /// <summary>
    /// Checks the last successful parallel run's checksum and every cell against the baseline's, then poisons the cells
    /// (each set to the complement of its expected value) and forgets the run, so a run that does not write every cell
    /// cannot pass.
    /// </summary>
    /// <exception cref="InvalidOperationException">No successful run since the last Verify, or a difference.</exception>
    public void Verify()
    {
        _checksum.Verify(Name, RunSequential, static (parallel, baseline) => $"checksum {parallel} instead of {baseline}.");
        int differing = _output.AsSpan().CommonPrefixLength(_baselineOutput);
        if (differing < _output.Length)
        {
            throw SampleRun.Mismatch(Name, $"cell {differing} holds {_output[differing]} instead of {_baselineOutput[differing]}.");
        }

        for (int i = 0; i < _output.Length; i++)
        {
            _output[i] = ~_baselineOutput[i];
        }
    }

    /// <inheritdoc/>
    protected override void InitializeCore()
    {
        int m = Parameters.ArraySize;
        var random = new Random(_seed);
        _source = new long[m];
        for (int i = 0; i < m; i++)
        {
            _source[i] = random.NextInt64();
        }

        _output = new long[m];
        _baselineOutput = new long[m];
    }

    /// <inheritdoc/>
    protected override PointRange CreateRootProblem() => new(0, Parameters.ArraySize);

    /// <inheritdoc/>
    protected override long GetProblemSize(PointRange problem) => problem.Count;

    /// <summary>Halves the visit range.</summary>
    protected override PointRange[] Split(PointRange problem, DivConContext context)
    {
        long half = problem.Count / 2;
        return half == 0 ? [problem] : [new(problem.Start, half), new(problem.Start + half, problem.Count - half)];
    }

    /// <inheritdoc/>
    protected override long ExecuteMuscle(PointRange problem, DivConContext context) =>
        Visit(_current, _output, problem.Start, problem.Start + problem.Count);

    /// <inheritdoc/>
    protected override long Merge(long[] subResults, DivConContext context)
    {
        long sum = 0;
        foreach (long s in subResults)
        {
            sum = unchecked(sum + s);
        }

        return sum;
    }

    /// <summary>The cell visited i-th in a pass: (i·G + ⌊i·G/M⌋) mod M (seed 000 §4), a bijection of [0, M) when G divides M.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int CellOf(long i, int gap, int arraySize)
    {
        long ig = i * gap;
        return (int)((ig + ig / arraySize) % arraySize);
    }

    // Visits i in [start, end): reads the cell from `from`, does L additions with its value, writes it to `to`, and
    // returns the sum of the written values. Within one pass each cell is visited once, so muscles of the same pass
    // never touch the same cell (no data race).
    private long Visit(long[] from, long[] to, long start, long end)
    {
        int gap = Parameters.Gap;
        int m = Parameters.ArraySize;
        int load = Parameters.Load;
        long sum = 0;
        for (long i = start; i < end; i++)
        {
            int cell = CellOf(i, gap, m);
            long value = from[cell];
            long acc = value;
            for (int l = 0; l < load; l++)
            {
                // L additions using the cell's value (seed 000 §4); the added term varies with l so the JIT cannot fold them.
                acc = unchecked(acc + (value ^ l));
            }

            to[cell] = acc;
            sum = unchecked(sum + acc);
        }

        return sum;
    }

    private static long CheckedArraySize(WorkInflationParameters parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        IReadOnlyList<string> problems = parameters.Validate();
        if (problems.Count > 0)
        {
            throw new ArgumentException("Invalid work-inflation parameters: " + string.Join(" ", problems), nameof(parameters));
        }

        return parameters.ArraySize;
    }
}
