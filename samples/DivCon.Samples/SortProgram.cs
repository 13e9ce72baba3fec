using DivCon.Skeletons;

namespace DivCon.Samples;

/// <summary>
/// What the two sorting programs (<see cref="QuickSort"/>, <see cref="MergeSort"/>) share: seeded non-negative random
/// integers as input, the bookkeeping of the last parallel run, and the baseline T_s: a copy plus
/// <see cref="Array.Sort{T}(T[])"/> into a separate array (non-destructive, like the programs), made once and reused;
/// <see cref="Verify"/> compares the two outputs element by element.
/// </summary>
public abstract class SortProgram : SortBase<int>, IDivConSample
{
    private readonly int[]? _preset;
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
    public async Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken = default)
    {
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

    /// <inheritdoc/>
    public void Verify()
    {
        SampleRun.EnsureParallelResult(_hasResult, Name);
        if (_baselineSorted is null)
        {
            RunSequential();
        }

        ReadOnlySpan<int> expected = _baselineSorted;
        int[] parallel = SortedElements;
        if (!expected.SequenceEqual(parallel))
        {
            int at = expected.CommonPrefixLength(parallel);
            throw SampleRun.Mismatch(Name, $"first difference at index {at}: {parallel[at]} instead of {expected[at]}.");
        }
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
