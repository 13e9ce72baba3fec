using DivCon.Skeletons;

namespace DivCon.Samples;

/// <summary>
/// Parallel mergesort (§4.4.5), non-destructive: splits halve the range; a muscle copies its range from the source
/// and sorts it with <see cref="Array.Sort{T}(T[], int, int)"/> (the copy is part of the parallel muscles, §4.5.1);
/// a merge sweeps two sorted halves into one. A node at level L leaves its output in
/// <see cref="SortBase{TElement}.SortedElements"/> when L is odd and in a second buffer when L is even, so a merge
/// always reads from one array and writes the other, whatever depth its children's leaves were at, and the level-1
/// result lands in <see cref="SortBase{TElement}.SortedElements"/>. Where the recursion leaves workers idle
/// (<see cref="NestedParallelism"/>: the level-1 merge, on 2 or more workers) the merge itself is parallel: the output
/// is cut into blocks, each block's start is located in both halves by binary search (the merge path), and the blocks
/// are merged in parallel, giving exactly the sequential merge's output. Baseline: copy + <see cref="Array.Sort{T}(T[])"/>.
/// </summary>
public sealed class MergeSort : SortProgram, INestedParallelSample
{
    /// <summary>The catalogue name.</summary>
    public const string ProgramName = "mergesort";

    private int[]? _buffer;

    /// <summary>Creates the program for a named size; the data is made on <see cref="TestableDivCon{TParam, TResult}.Initialize"/> or the first run.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public MergeSort(ProblemSize size, int seed = SampleCatalog.DefaultSeed)
        : this(size, LengthFor(size), seed)
    {
    }

    internal MergeSort(ProblemSize size, int length, int seed)
        : base(size, length, seed)
    {
    }

    // Tests: sorts a copy of the given elements instead of random ones.
    internal MergeSort(int[] elements)
        : base(Samples.ProblemSize.Small, elements.Length, seed: 0, preset: elements)
    {
    }

    /// <inheritdoc/>
    public override string Name => ProgramName;

    /// <summary>
    /// Whether the level-1 split and merge run their own work in parallel where <see cref="NestedParallelism.Pays"/>
    /// (default true: the same work shared by idle workers); false runs them on one worker, as the thesis's program
    /// does (for comparisons).
    /// </summary>
    public bool ParallelSplitAndMerge { get; set; } = true;

    /// <summary>The number of integers for each size: small 2^18, medium 2^23, thesis 2^26 (§4.4.5).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public static int LengthFor(ProblemSize size) => QuickSort.LengthFor(size);

    /// <inheritdoc/>
    protected override void InitializeCore()
    {
        base.InitializeCore();
        _buffer = new int[Length];
    }

    /// <summary>Copies the range from the source into this level's output array and sorts it there.</summary>
    protected override ElementRange ExecuteMuscle(ElementRange problem, DivConContext context)
    {
        int[] target = OutputOf(context.Level);
        Array.Copy(SourceElements, problem.Min, target, problem.Min, problem.Length);
        Array.Sort(target, problem.Min, problem.Length);
        return problem;
    }

    /// <summary>Merges the two halves, in parallel blocks where <see cref="NestedParallelism.Pays"/>.</summary>
    protected override ValueTask<ElementRange> MergeAsync(ElementRange[] subResults, DivConContext context) =>
        subResults.Length == 2 && ParallelSplitAndMerge && NestedParallelism.Pays(context, BranchingFactor)
            ? MergeInParallelAsync(subResults, context)
            : new(Merge(subResults, context));

    /// <summary>Merges the children's sorted ranges (in the other array) into this level's output array.</summary>
    protected override ElementRange Merge(ElementRange[] subResults, DivConContext context)
    {
        ElementRange union = Union(subResults);
        int[] from = OutputOf(context.Level + 1);
        int[] to = OutputOf(context.Level);
        if (subResults.Length == 1)
        {
            Array.Copy(from, union.Min, to, union.Min, union.Length);
            return union;
        }

        if (subResults.Length != 2)
        {
            throw new InvalidOperationException($"Mergesort merges two halves; got {subResults.Length} subresults.");
        }

        MergeRuns(from, to, subResults[0].Min, subResults[0].Max, subResults[1].Min, subResults[1].Max, union.Min);
        return union;
    }

    /// <summary>
    /// How many elements of the left run <paramref name="left"/> are among the first <paramref name="taken"/> elements
    /// of its merge with <paramref name="right"/> (ties taken from the left first, as <see cref="Merge"/> does): the
    /// merge path's crossing of output position <paramref name="taken"/>, by binary search.
    /// </summary>
    internal static int LeftCount(ReadOnlySpan<int> left, ReadOnlySpan<int> right, int taken)
    {
        int low = Math.Max(0, taken - right.Length);
        int high = Math.Min(taken, left.Length);
        while (low < high)
        {
            int i = low + ((high - low) / 2);
            // Too few from the left when left[i] would come before right[taken − i − 1] (ties go left).
            if (left[i] <= right[taken - i - 1])
            {
                low = i + 1;
            }
            else
            {
                high = i;
            }
        }

        return low;
    }

    // Merges from[i, iEnd) and from[j, jEnd) into to[k, …); on equal values the left run's element comes first.
    private static void MergeRuns(int[] from, int[] to, int i, int iEnd, int j, int jEnd, int k)
    {
        while (i < iEnd && j < jEnd)
        {
            int a = from[i];
            int b = from[j];
            if (b < a)
            {
                to[k++] = b;
                j++;
            }
            else
            {
                to[k++] = a;
                i++;
            }
        }

        Array.Copy(from, i, to, k, iEnd - i);
        k += iEnd - i;
        Array.Copy(from, j, to, k, jEnd - j);
    }

    private async ValueTask<ElementRange> MergeInParallelAsync(ElementRange[] subResults, DivConContext context)
    {
        ElementRange union = Union(subResults);
        int[] from = OutputOf(context.Level + 1);
        int[] to = OutputOf(context.Level);
        ElementRange left = subResults[0];
        ElementRange right = subResults[1];
        int length = union.Length;
        int blocks = NestedParallelism.Blocks(context, length);
        await context.ForAsync(0, blocks, b =>
        {
            int start = NestedParallelism.BlockStart(b, blocks, length);
            int end = NestedParallelism.BlockStart(b + 1, blocks, length);
            ReadOnlySpan<int> l = from.AsSpan(left.Min, left.Length);
            ReadOnlySpan<int> r = from.AsSpan(right.Min, right.Length);
            int iStart = LeftCount(l, r, start);
            int iEnd = LeftCount(l, r, end);
            MergeRuns(from, to, left.Min + iStart, left.Min + iEnd, right.Min + (start - iStart), right.Min + (end - iEnd), union.Min + start);
        }).ConfigureAwait(false);
        return union;
    }

    private int[] OutputOf(int level) => (level & 1) == 1 ? SortedElements : _buffer!;
}
