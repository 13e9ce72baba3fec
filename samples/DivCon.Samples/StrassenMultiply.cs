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
/// parallel result must equal the baseline exactly. A split's quadrant copies and ten submatrix sums, and a merge's
/// eight, are computed row by row (one pass over each row of the operands); where the recursion leaves workers idle
/// (<see cref="NestedParallelism"/>: level 1, on 2 or more workers) the rows are shared among the workers
/// (<see cref="DivConContext.ForAsync"/>) instead of one worker doing them all while the others wait (§8.2).
/// </summary>
public sealed class StrassenMultiply : GranularDivCon<StrassenProblem, SquareMatrix>, INestedParallelSample
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

    /// <summary>
    /// Whether the level-1 split and merge run their own work in parallel where <see cref="NestedParallelism.Pays"/>
    /// (default true: the same work shared by idle workers); false runs them on one worker, as the thesis's program
    /// does (for comparisons).
    /// </summary>
    public bool ParallelSplitAndMerge { get; set; } = true;

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

    /// <summary>Checks the last successful parallel run's product against the baseline's, then forgets it (verifying again needs a new run).</summary>
    /// <exception cref="InvalidOperationException">No successful run since the last Verify, or the products differ.</exception>
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

        _result = null;
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
    protected override bool ShouldSplit(StrassenProblem problem, DivConContext context) =>
        CanSplit(problem.A.Order, LeafOrder) && base.ShouldSplit(problem, context);

    /// <inheritdoc/>
    protected override StrassenProblem[] Split(StrassenProblem problem, DivConContext context) => SplitProducts(problem.A, problem.B);

    /// <summary>The split, its rows in parallel where <see cref="NestedParallelism.Pays"/>.</summary>
    protected override ValueTask<StrassenProblem[]> SplitAsync(StrassenProblem problem, DivConContext context)
    {
        if (!(ParallelSplitAndMerge && NestedParallelism.Pays(context, BranchingFactor)))
        {
            return new(Split(problem, context));
        }

        var operands = new SplitOperands(problem.A, problem.B);
        int half = problem.A.Order / 2;
        int blocks = NestedParallelism.Blocks(context, half);
        return Await(context.ForAsync(0, blocks, b => operands.Rows(NestedParallelism.BlockStart(b, blocks, half), NestedParallelism.BlockStart(b + 1, blocks, half))), operands);

        static async ValueTask<StrassenProblem[]> Await(ValueTask rows, SplitOperands operands)
        {
            await rows.ConfigureAwait(false);
            return operands.Products();
        }
    }

    /// <inheritdoc/>
    protected override SquareMatrix ExecuteMuscle(StrassenProblem problem, DivConContext context) =>
        MultiplySequential(problem.A, problem.B, LeafOrder);

    /// <inheritdoc/>
    protected override SquareMatrix Merge(SquareMatrix[] subResults, DivConContext context) => Combine(subResults);

    /// <summary>The merge, its rows in parallel where <see cref="NestedParallelism.Pays"/>.</summary>
    protected override ValueTask<SquareMatrix> MergeAsync(SquareMatrix[] subResults, DivConContext context)
    {
        if (!(ParallelSplitAndMerge && NestedParallelism.Pays(context, BranchingFactor)))
        {
            return new(Merge(subResults, context));
        }

        SquareMatrix c = NewCombined(subResults);
        int half = subResults[0].Order;
        int blocks = NestedParallelism.Blocks(context, half);
        return Await(context.ForAsync(0, blocks, b => CombineRows(subResults, c, NestedParallelism.BlockStart(b, blocks, half), NestedParallelism.BlockStart(b + 1, blocks, half))), c);

        static async ValueTask<SquareMatrix> Await(ValueTask rows, SquareMatrix c)
        {
            await rows.ConfigureAwait(false);
            return c;
        }
    }

    private static bool CanSplit(int order, int leafOrder) => order > leafOrder && order % 2 == 0;

    // The operands of Strassen's products I–VII (§4.4.3), all rows at once.
    private static StrassenProblem[] SplitProducts(SquareMatrix a, SquareMatrix b)
    {
        var operands = new SplitOperands(a, b);
        operands.Rows(0, a.Order / 2);
        return operands.Products();
    }

    // C11 = I + IV − V + VII; C12 = III + V; C21 = II + IV; C22 = I − II + III + VI; all rows at once.
    private static SquareMatrix Combine(SquareMatrix[] m)
    {
        SquareMatrix c = NewCombined(m);
        CombineRows(m, c, 0, m[0].Order);
        return c;
    }

    private static SquareMatrix NewCombined(SquareMatrix[] m)
    {
        if (m.Length != 7)
        {
            throw new InvalidOperationException($"Strassen merges 7 products; got {m.Length}.");
        }

        return new SquareMatrix(m[0].Order * 2);
    }

    // Rows [from, to) of each quadrant of c: C11 = ((I + IV) − V) + VII; C12 = III + V; C21 = II + IV;
    // C22 = ((I − II) + III) + VI: each element gets the same operations in the same order whichever call writes it.
    private static void CombineRows(SquareMatrix[] m, SquareMatrix c, int from, int to)
    {
        int half = m[0].Order;
        int n = c.Order;
        double[] cd = c.Data;
        for (int i = from; i < to; i++)
        {
            Span<double> c11 = cd.AsSpan(i * n, half);
            Span<double> c12 = cd.AsSpan((i * n) + half, half);
            Span<double> c21 = cd.AsSpan((i + half) * n, half);
            Span<double> c22 = cd.AsSpan(((i + half) * n) + half, half);
            SquareMatrix.AddRow(Row(m[0], i), Row(m[3], i), c11, 1);
            SquareMatrix.AddRow(c11, Row(m[4], i), c11, -1);
            SquareMatrix.AddRow(c11, Row(m[6], i), c11, 1);
            SquareMatrix.AddRow(Row(m[2], i), Row(m[4], i), c12, 1);
            SquareMatrix.AddRow(Row(m[1], i), Row(m[3], i), c21, 1);
            SquareMatrix.AddRow(Row(m[0], i), Row(m[1], i), c22, -1);
            SquareMatrix.AddRow(c22, Row(m[2], i), c22, 1);
            SquareMatrix.AddRow(c22, Row(m[5], i), c22, 1);
        }
    }

    private static ReadOnlySpan<double> Row(SquareMatrix m, int i) => m.Data.AsSpan(i * m.Order, m.Order);

    // The fourteen half-order operands of a split: the quadrants A11, A22, B11, B22 and ten sums of quadrants, filled
    // row by row. Rows may be called for disjoint row ranges in parallel: each call writes only its own rows.
    private sealed class SplitOperands
    {
        private readonly SquareMatrix _a;
        private readonly SquareMatrix _b;
        private readonly SquareMatrix[] _m = new SquareMatrix[14];

        public SplitOperands(SquareMatrix a, SquareMatrix b)
        {
            _a = a;
            _b = b;
            int half = a.Order / 2;
            for (int k = 0; k < _m.Length; k++)
            {
                _m[k] = new SquareMatrix(half);
            }
        }

        public void Rows(int from, int to)
        {
            int n = _a.Order;
            int half = n / 2;
            double[] a = _a.Data;
            double[] b = _b.Data;
            for (int i = from; i < to; i++)
            {
                ReadOnlySpan<double> a11 = a.AsSpan(i * n, half), a12 = a.AsSpan((i * n) + half, half);
                ReadOnlySpan<double> a21 = a.AsSpan((i + half) * n, half), a22 = a.AsSpan(((i + half) * n) + half, half);
                ReadOnlySpan<double> b11 = b.AsSpan(i * n, half), b12 = b.AsSpan((i * n) + half, half);
                ReadOnlySpan<double> b21 = b.AsSpan((i + half) * n, half), b22 = b.AsSpan(((i + half) * n) + half, half);
                a11.CopyTo(Row(0, i));
                a22.CopyTo(Row(1, i));
                b11.CopyTo(Row(2, i));
                b22.CopyTo(Row(3, i));
                SquareMatrix.AddRow(a11, a22, Row(4, i), 1);   // I:   A11 + A22
                SquareMatrix.AddRow(b11, b22, Row(5, i), 1);   //      B11 + B22
                SquareMatrix.AddRow(a21, a22, Row(6, i), 1);   // II:  A21 + A22
                SquareMatrix.AddRow(b12, b22, Row(7, i), -1);  // III: B12 − B22
                SquareMatrix.AddRow(b21, b11, Row(8, i), -1);  // IV:  B21 − B11
                SquareMatrix.AddRow(a11, a12, Row(9, i), 1);   // V:   A11 + A12
                SquareMatrix.AddRow(a21, a11, Row(10, i), -1); // VI:  A21 − A11
                SquareMatrix.AddRow(b11, b12, Row(11, i), 1);  //      B11 + B12
                SquareMatrix.AddRow(a12, a22, Row(12, i), -1); // VII: A12 − A22
                SquareMatrix.AddRow(b21, b22, Row(13, i), 1);  //      B21 + B22
            }
        }

        public StrassenProblem[] Products()
        {
            SquareMatrix[] m = _m;
            return
            [
                new(m[4], m[5]),   // I:   (A11 + A22)(B11 + B22)
                new(m[6], m[2]),   // II:  (A21 + A22) B11
                new(m[0], m[7]),   // III: A11 (B12 − B22)
                new(m[1], m[8]),   // IV:  A22 (B21 − B11)
                new(m[9], m[3]),   // V:   (A11 + A12) B22
                new(m[10], m[11]), // VI:  (A21 − A11)(B11 + B12)
                new(m[12], m[13]), // VII: (A12 − A22)(B21 + B22)
            ];
        }

        private Span<double> Row(int k, int i) => _m[k].Data.AsSpan(i * _m[k].Order, _m[k].Order);
    }
}
