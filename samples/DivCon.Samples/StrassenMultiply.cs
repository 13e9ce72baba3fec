using DivCon.Skeletons;

namespace DivCon.Samples;

/// <summary>
/// Strassen matrix multiplication (§4.4.3): a split makes the 7 products I–VII of half-order sums; a merge combines
/// them into the four quadrants. The problem size is the number of elements (order²), reduced 4-fold per split with
/// branching factor 7, so the automatic granularity uses Strassen's rule (§4.5.2). Splitting also stops at
/// <see cref="LeafOrder"/> and at odd orders. A muscle is the sequential Strassen recursion down to
/// <see cref="LeafOrder"/> with the standard multiplication below, which is also the sequential baseline: the sequential
/// elision equals the baseline, and the parallel program does the same arithmetic in the same order of operations per
/// element. Values are integers in [0, 1024) held in doubles, so every product and sum is exact (below 2^53) and the
/// parallel result must equal the baseline exactly.
/// </summary>
public sealed class StrassenMultiply : GranularDivCon<StrassenProblem, SquareMatrix>, IDivConSample
{
    /// <summary>The catalogue name.</summary>
    public const string ProgramName = "strassen";

    /// <summary>The default order at or below which Strassen's recursion switches to the standard multiplication.</summary>
    public const int DefaultLeafOrder = 64;

    private SquareMatrix? _a;
    private SquareMatrix? _b;
    private SquareMatrix? _result;
    private SquareMatrix? _baseline;

    /// <summary>Creates the program for a named size; the matrices are made on <see cref="TestableDivCon{TParam, TResult}.Initialize"/> or the first run.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public StrassenMultiply(ProblemSize size, int seed = SampleCatalog.DefaultSeed)
        : this(size, OrderFor(size), seed, DefaultLeafOrder)
    {
    }

    internal StrassenMultiply(ProblemSize size, int order, int seed, int leafOrder)
        : base((long)order * order)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(order);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(leafOrder);
        Size = size;
        Order = order;
        Seed = seed;
        LeafOrder = leafOrder;
    }

    /// <inheritdoc/>
    public string Name => ProgramName;

    /// <inheritdoc/>
    public ProblemSize Size { get; }

    /// <summary>The order of the two input matrices.</summary>
    public int Order { get; }

    /// <summary>The seed of the inputs (A from it, B from it + 1).</summary>
    public int Seed { get; }

    /// <summary>The order at or below which multiplication is standard rather than Strassen.</summary>
    public int LeafOrder { get; }

    /// <inheritdoc/>
    public override int BranchingFactor => 7;

    /// <summary>The product of the last successful parallel run, or null.</summary>
    public SquareMatrix? Result => _result;

    /// <summary>The order for each size: small 256, medium 1280 (= 5 · 2^8: splits down to order 40), thesis 1536 (§4.4.3).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public static int OrderFor(ProblemSize size) =>
        SampleRun.BySize(size, 256, 1280, 1536);

    /// <summary>The sequential Strassen product, standard below <paramref name="leafOrder"/> or at odd orders.</summary>
    public static SquareMatrix MultiplySequential(SquareMatrix a, SquareMatrix b, int leafOrder)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(leafOrder);
        if (a.Order != b.Order)
        {
            throw new ArgumentException($"Orders differ: {a.Order} and {b.Order}.", nameof(b));
        }

        if (!CanSplit(a.Order, leafOrder))
        {
            return SquareMatrix.MultiplyStandard(a, b);
        }

        StrassenProblem[] products = SplitProducts(a, b);
        var results = new SquareMatrix[products.Length];
        for (int i = 0; i < products.Length; i++)
        {
            results[i] = MultiplySequential(products[i].A, products[i].B, leafOrder);
        }

        return Combine(results);
    }

    /// <inheritdoc/>
    public override long ComputeGranularity(long targetMuscles) => GranularityRules.Strassen(ProblemSize, targetMuscles);

    /// <inheritdoc/>
    public async Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken = default)
    {
        _result = null;
        _result = await RunAsync(scheduler, cancellationToken).ConfigureAwait(false);
    }

    /// <inheritdoc/>
    public void RunSequential()
    {
        Initialize();
        _baseline = MultiplySequential(_a!, _b!, LeafOrder);
    }

    /// <inheritdoc/>
    public void Verify()
    {
        SampleRun.EnsureParallelResult(_result is not null, Name);
        if (_baseline is null)
        {
            RunSequential();
        }

        if (!_result!.ContentEquals(_baseline!))
        {
            throw SampleRun.Mismatch(Name, "the products differ.");
        }
    }

    /// <inheritdoc/>
    protected override void InitializeCore()
    {
        _a = SquareMatrix.Random(Order, Seed);
        _b = SquareMatrix.Random(Order, unchecked(Seed + 1));
    }

    /// <inheritdoc/>
    protected override StrassenProblem CreateRootProblem() => new(_a!, _b!);

    /// <inheritdoc/>
    protected override long GetProblemSize(StrassenProblem problem) => (long)problem.A.Order * problem.A.Order;

    /// <summary>Splits while larger than the granularity, above <see cref="LeafOrder"/>, and at even orders.</summary>
    protected override bool ShouldSplit(StrassenProblem problem, int level) =>
        CanSplit(problem.A.Order, LeafOrder) && base.ShouldSplit(problem, level);

    /// <inheritdoc/>
    protected override StrassenProblem[] Split(StrassenProblem problem, int level) => SplitProducts(problem.A, problem.B);

    /// <inheritdoc/>
    protected override SquareMatrix ExecuteMuscle(StrassenProblem problem, int level) =>
        MultiplySequential(problem.A, problem.B, LeafOrder);

    /// <inheritdoc/>
    protected override SquareMatrix Merge(SquareMatrix[] subResults, int level) => Combine(subResults);

    private static bool CanSplit(int order, int leafOrder) => order > leafOrder && order % 2 == 0;

    // The operands of Strassen's products I–VII (§4.4.3).
    private static StrassenProblem[] SplitProducts(SquareMatrix a, SquareMatrix b)
    {
        SquareMatrix a11 = a.Quadrant(0, 0), a12 = a.Quadrant(0, 1), a21 = a.Quadrant(1, 0), a22 = a.Quadrant(1, 1);
        SquareMatrix b11 = b.Quadrant(0, 0), b12 = b.Quadrant(0, 1), b21 = b.Quadrant(1, 0), b22 = b.Quadrant(1, 1);
        return
        [
            new(SquareMatrix.Add(a11, a22), SquareMatrix.Add(b11, b22)),      // I
            new(SquareMatrix.Add(a21, a22), b11),                             // II
            new(a11, SquareMatrix.Subtract(b12, b22)),                        // III
            new(a22, SquareMatrix.Subtract(b21, b11)),                        // IV
            new(SquareMatrix.Add(a11, a12), b22),                             // V
            new(SquareMatrix.Subtract(a21, a11), SquareMatrix.Add(b11, b12)), // VI
            new(SquareMatrix.Subtract(a12, a22), SquareMatrix.Add(b21, b22)), // VII
        ];
    }

    // C11 = I + IV − V + VII; C12 = III + V; C21 = II + IV; C22 = I − II + III + VI.
    private static SquareMatrix Combine(SquareMatrix[] m)
    {
        if (m.Length != 7)
        {
            throw new InvalidOperationException($"Strassen merges 7 products; got {m.Length}.");
        }

        int half = m[0].Order;
        var c = new SquareMatrix(half * 2);
        c.SetQuadrant(0, 0, SquareMatrix.Add(SquareMatrix.Subtract(SquareMatrix.Add(m[0], m[3]), m[4]), m[6]));
        c.SetQuadrant(0, 1, SquareMatrix.Add(m[2], m[4]));
        c.SetQuadrant(1, 0, SquareMatrix.Add(m[1], m[3]));
        c.SetQuadrant(1, 1, SquareMatrix.Add(SquareMatrix.Add(SquareMatrix.Subtract(m[0], m[1]), m[2]), m[5]));
        return c;
    }
}
