using DivCon.Skeletons;

namespace DivCon.Samples;

/// <summary>
/// What the two sorting programs (<see cref="QuickSort"/>, <see cref="MergeSort"/>) share: seeded non-negative random
/// integers as input, the bookkeeping of the last parallel run, and the baseline T_s: a copy plus
/// <see cref="Array.Sort{T}(T[])"/> into a separate array (non-destructive, like the programs), made once and reused;
/// <see cref="Verify"/> compares the two outputs element by element and then overwrites the parallel output with a
/// value outside the input, so a later run must write every element again to pass. An instance runs one parallel run
/// at a time (its runs share the output array): a second one started meanwhile fails with
/// <see cref="InvalidOperationException"/>.
/// </summary>
public abstract class SortProgram : SortBase<int>, IDivConSample
{
    private readonly int[]? _preset;
    private readonly RunGuard _guard = new();
    private int[]? _baselineSorted;
    private bool _hasResult;

    // preset (tests): sort a copy of these elements instead of random ones.
    private protected SortProgram(ProblemSize size, int length, int seed, int[]? preset = null)
        : base(length, seed)
    {
        Size = size;
        _preset = preset;
    }

    /// <inheritdoc/>
    public abstract string Name { get; }

    /// <inheritdoc/>
    public ProblemSize Size { get; }

    /// <inheritdoc/>
    /// <exception cref="InvalidOperationException">Another parallel run of this instance is in progress.</exception>
    public async Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken = default)
    {
        using RunGuard.Exit exit = _guard.Enter(Name);
        _hasResult = false;
        await RunAsync(scheduler, cancellationToken).ConfigureAwait(false);
        _hasResult = true;
    }

    /// <inheritdoc/>
    public void RunSequential()
    {
        Initialize();
        int[] source = SourceElements;
        int[] sorted = _baselineSorted ?? new int[source.Length];
        Array.Copy(source, sorted, source.Length);
        Array.Sort(sorted);
        _baselineSorted = sorted;
    }

    /// <summary>
    /// Checks the last successful parallel run's output against the baseline's, then poisons it (every element set to
    /// a value below the input's minimum, or the maximum int if the minimum is int.MinValue) and forgets the run: a
    /// second Verify needs a new run, and a run that did not write its output cannot pass.
    /// </summary>
    /// <exception cref="InvalidOperationException">No successful run since the last Verify, or the outputs differ.</exception>
    public void Verify()
    {
        SampleRun.EnsureParallelResult(_hasResult, Name);
        if (_baselineSorted is null)
        {
            RunSequential();
        }

        int[] expected = _baselineSorted!;
        int[] parallel = SortedElements;
        if (!expected.AsSpan().SequenceEqual(parallel))
        {
            int at = expected.AsSpan().CommonPrefixLength(parallel);
            throw SampleRun.Mismatch(Name, $"first difference at index {at}: {parallel[at]} instead of {expected[at]}.");
        }

        _hasResult = false;
        Array.Fill(parallel, expected.Length > 0 && expected[0] > int.MinValue ? int.MinValue : int.MaxValue);
    }

    /// <inheritdoc/>
    protected override int[] GenerateElements(int length, int seed)
    {
        if (_preset is not null)
        {
            return (int[])_preset.Clone();
        }

        var random = new Random(seed);
        var elements = new int[length];
        for (int i = 0; i < elements.Length; i++)
        {
            elements[i] = random.Next();
        }

        return elements;
    }
}
