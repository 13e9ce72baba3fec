using System.Globalization;
using DivCon.Skeletons.Sequences;

namespace DivCon.Samples.Sequences;

/// <summary>
/// A memory-bound transform on the sequence skeleton (issue 10, seed 004): R passes over arrays of n doubles, pass k
/// computing out[i] = 0.75·in[i] + 0.25·in[(i + D) mod n] for every i with
/// <see cref="SequenceSkeleton.ForEachAsync{T}"/> over the array's blocks of B doubles, under one
/// <see cref="WindowMode"/> (pass 0 reads the input, later passes the previous pass's output; two output arrays
/// alternate). Each double is read twice, D steps apart in the sequential order, so what the last-level cache holds
/// between the two reads decides whether the second is a hit: the locality seed 004's window keeps. Grain and window
/// count blocks (the skeleton's elements).
/// </summary>
/// <remarks>
/// Each pass is started by a task on the run's scheduler (as when a task-parallel program calls the skeleton), so the
/// chunks are queued on a worker's deque: with no window every chunk is queued at once, the owner pops from the end
/// of the array and thieves steal from its start, so workers are far apart; a window keeps them within m blocks of
/// the first unprocessed one. Every element is computed the same way in every order, so the parallel result must
/// equal the sequential baseline's bit for bit.
/// </remarks>
public sealed class SequenceTransform : ISampleProgram, ISampleInput
{
    /// <summary>The default grain: blocks per task (seed 004's 128; 64 KiB of input with 64-double blocks).</summary>
    public const int DefaultGrain = SequenceOptions.DefaultGrain;

    private const string Prefix = "transform-";

    private readonly int _seed;
    private readonly SequenceOptions _options;
    private double[] _source = [];
    private int[] _blocks = [];
    private readonly double[][] _outputs = [[], []];
    private readonly double[][] _baselineOutputs = [[], []];
    private readonly RunGuard _guard = new();
    private bool _hasResult;
    private bool _hasBaseline;

    /// <summary>Creates the transform; the arrays are made on <see cref="Initialize"/> or the first run.</summary>
    /// <param name="mode">The window mode of every pass.</param>
    /// <param name="size">The size the parameters were chosen for.</param>
    /// <param name="parameters">n, D, R.</param>
    /// <param name="seed">Seeds the input.</param>
    /// <param name="grain">Blocks per task (at least 1).</param>
    /// <param name="windowSize">The window m in blocks (at least <paramref name="grain"/>); null: from the last-level cache
    /// (<see cref="SequenceSkeleton.DefaultWindowSize"/> with <see cref="BytesPerElement"/>). Ignored with no window.</param>
    /// <exception cref="ArgumentException">A parameter is invalid (every problem is listed).</exception>
    public SequenceTransform(WindowMode mode, ProblemSize size, SequenceTransformParameters parameters, int seed = SampleCatalog.DefaultSeed,
        int grain = DefaultGrain, int? windowSize = null)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var problems = parameters.Validate().ToList();
        if (!Enum.IsDefined(mode))
        {
            problems.Add($"Mode must be None, Static or Sliding; got {mode}.");
        }

        if (grain < 1)
        {
            problems.Add($"Grain must be at least 1; got {grain}.");
        }

        if (windowSize is int m && m < grain)
        {
            problems.Add($"The window size must be at least the grain ({grain}); got {m}.");
        }

        if (problems.Count > 0)
        {
            throw new ArgumentException("Invalid transform: " + string.Join(" ", problems), nameof(parameters));
        }

        Mode = mode;
        Size = size;
        Parameters = parameters;
        _seed = seed;
        WindowSize = mode == WindowMode.None ? null
            : windowSize ?? SequenceSkeleton.DefaultWindowSize(SequenceSkeleton.DetectLastLevelCacheBytes(), BytesPerElement, grain);
        _options = new SequenceOptions { Mode = mode, Grain = grain, WindowSize = WindowSize, BytesPerElement = BytesPerElement };
    }

    /// <summary>The three catalogue names: transform-none, transform-static, transform-sliding.</summary>
    public static IReadOnlyList<string> Names { get; } = [.. Enum.GetValues<WindowMode>().Select(NameOf)];

    /// <summary>The catalogue name of <paramref name="mode"/>.</summary>
    public static string NameOf(WindowMode mode) => Prefix + mode.ToString().ToLowerInvariant();

    /// <summary>The window mode of a catalogue name (case-insensitive), or null when it is none of <see cref="Names"/>.</summary>
    public static WindowMode? ModeOf(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        return Enum.GetValues<WindowMode>().Cast<WindowMode?>().FirstOrDefault(m => string.Equals(NameOf(m!.Value), name, StringComparison.OrdinalIgnoreCase));
    }

    /// <summary>Creates the transform <paramref name="name"/> (one of <see cref="Names"/>) with the parameters for <paramref name="size"/>.</summary>
    /// <exception cref="ArgumentException">An unknown name, or an invalid grain or window.</exception>
    public static SequenceTransform Create(string name, ProblemSize size, int seed = SampleCatalog.DefaultSeed, int grain = DefaultGrain, int? windowSize = null)
    {
        WindowMode mode = ModeOf(name)
            ?? throw new ArgumentException($"Unknown transform '{name}'. Valid names: {string.Join(", ", Names)}.", nameof(name));
        return new SequenceTransform(mode, size, SequenceTransformParameters.For(size), seed, grain, windowSize);
    }

    /// <inheritdoc/>
    public string Name => NameOf(Mode);

    /// <inheritdoc/>
    public ProblemSize Size { get; }

    /// <summary>The window mode of every pass.</summary>
    public WindowMode Mode { get; }

    /// <summary>n, D, R.</summary>
    public SequenceTransformParameters Parameters { get; }

    /// <summary>Blocks per task.</summary>
    public int Grain => _options.Grain;

    /// <summary>The window m in blocks (chosen from the last-level cache unless given); null with no window.</summary>
    public int? WindowSize { get; }

    /// <summary>Bytes one block touches in a pass: in[i], in[i + D] and out[i] for its B doubles (for the default window).</summary>
    public int BytesPerElement => 3 * sizeof(double) * Parameters.BlockLength;

    /// <inheritdoc/>
    public bool IsInitialized { get; private set; }

    /// <summary>One line naming the parameters, for result files.</summary>
    public string Describe() => string.Create(CultureInfo.InvariantCulture,
        $"window {Mode.ToString().ToLowerInvariant()}{(WindowSize is int m ? $" m = {m} blocks" : string.Empty)}, grain {Grain} blocks, "
        + $"B = {Parameters.BlockLength}, n = {Parameters.Length}, D = {Parameters.Distance}, R = {Parameters.Passes}");

    /// <inheritdoc/>
    public void Initialize()
    {
        if (IsInitialized)
        {
            return;
        }

        int n = Parameters.Length;
        _blocks = Enumerable.Range(0, Parameters.Blocks).ToArray();
        var random = new Random(_seed);
        _source = new double[n];
        for (int i = 0; i < n; i++)
        {
            _source[i] = random.NextDouble();
        }

        for (int k = 0; k < 2; k++)
        {
            // Written once here so that the operating system maps their pages now, not on first touch inside a timed run.
            _outputs[k] = new double[n];
            _baselineOutputs[k] = new double[n];
            Array.Fill(_outputs[k], double.NaN);
            Array.Fill(_baselineOutputs[k], double.NaN);
        }

        IsInitialized = true;
    }

    /// <summary>One parallel run: the passes one after another, each on the sequence skeleton on <paramref name="scheduler"/>.</summary>
    /// <exception cref="InvalidOperationException">Another parallel run of this instance is in progress (its runs share the output arrays).</exception>
    public async Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        using RunGuard.Exit exit = _guard.Enter(Name);
        _hasResult = false;
        Initialize();
        for (int pass = 0; pass < Parameters.Passes; pass++)
        {
            double[] input = pass == 0 ? _source : _outputs[(pass - 1) % 2];
            double[] output = _outputs[pass % 2];
            // The pass starts in a task on the scheduler, so its chunks go to that worker's deque (see remarks); the
            // await orders the passes: every element of pass k is written before pass k + 1 starts.
            await Task.Factory.StartNew(
                () => SequenceSkeleton.ForEachAsync(_blocks, (_, block) => Block(input, output, block), scheduler, _options, cancellationToken),
                cancellationToken, TaskCreationOptions.DenyChildAttach, scheduler).Unwrap().ConfigureAwait(false);
        }

        _hasResult = true;
    }

    /// <inheritdoc/>
    public void RunSequential()
    {
        Initialize();
        for (int pass = 0; pass < Parameters.Passes; pass++)
        {
            double[] input = pass == 0 ? _source : _baselineOutputs[(pass - 1) % 2];
            double[] output = _baselineOutputs[pass % 2];
            for (int i = 0; i < input.Length; i++)
            {
                output[i] = Step(input, i);
            }
        }

        _hasBaseline = true;
    }

    /// <summary>
    /// Checks the last successful parallel run's final output bit for bit against the baseline's, then fills both
    /// output arrays with NaN and forgets the run, so a run that does not write every element cannot pass.
    /// </summary>
    /// <exception cref="InvalidOperationException">No successful run since the last Verify, or a difference.</exception>
    public void Verify()
    {
        SampleRun.EnsureParallelResult(_hasResult, Name);
        if (!_hasBaseline)
        {
            RunSequential();
        }

        int last = (Parameters.Passes - 1) % 2;
        double[] result = _outputs[last];
        double[] baseline = _baselineOutputs[last];
        int same = CommonPrefix(result, baseline);
        if (same < result.Length)
        {
            throw SampleRun.Mismatch(Name, $"element {same} is {result[same].ToString("R", CultureInfo.InvariantCulture)} "
                + $"instead of {baseline[same].ToString("R", CultureInfo.InvariantCulture)}.");
        }

        _hasResult = false;
        Array.Fill(_outputs[0], double.NaN);
        Array.Fill(_outputs[1], double.NaN);
    }

    /// <summary>The final output of the last parallel run (for tests).</summary>
    internal double[] LastOutput => _outputs[(Parameters.Passes - 1) % 2];

    private void Block(double[] input, double[] output, int block)
    {
        int start = block * Parameters.BlockLength;
        int end = (int)Math.Min((long)start + Parameters.BlockLength, input.Length);
        for (int i = start; i < end; i++)
        {
            output[i] = Step(input, i);
        }
    }

    private double Step(double[] input, int i)
    {
        int j = i + Parameters.Distance;
        return 0.75 * input[i] + 0.25 * input[j >= input.Length ? j - input.Length : j];
    }

    // Bitwise, so that NaN or −0 would not hide a difference.
    private static int CommonPrefix(double[] a, double[] b)
    {
        for (int i = 0; i < a.Length; i++)
        {
            if (BitConverter.DoubleToInt64Bits(a[i]) != BitConverter.DoubleToInt64Bits(b[i]))
            {
                return i;
            }
        }

        return a.Length;
    }
}
