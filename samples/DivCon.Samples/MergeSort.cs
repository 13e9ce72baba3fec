using DivCon.Skeletons;

namespace DivCon.Samples;

/// <summary>
/// Parallel mergesort (§4.4.5), non-destructive: splits halve the range; a muscle copies its range from the source
/// and sorts it with <see cref="Array.Sort{T}(T[], int, int)"/> (the copy is part of the parallel muscles, §4.5.1);
/// a merge sweeps two sorted halves into one. A node at level L leaves its output in
/// <see cref="SortBase{TElement}.SortedElements"/> when L is odd and in a second buffer when L is even, so a merge
/// always reads from one array and writes the other, whatever depth its children's leaves were at, and the level-1
/// result lands in <see cref="SortBase{TElement}.SortedElements"/>. Baseline: copy + <see cref="Array.Sort{T}(T[])"/>.
/// </summary>
public sealed class MergeSort : SortProgram
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
    protected override ElementRange ExecuteMuscle(ElementRange problem, int level)
    {
        int[] target = OutputOf(level);
        Array.Copy(SourceElements, problem.Min, target, problem.Min, problem.Length);
        Array.Sort(target, problem.Min, problem.Length);
        return problem;
    }

    /// <summary>Merges the children's sorted ranges (in the other array) into this level's output array.</summary>
    protected override ElementRange Merge(ElementRange[] subResults, int level)
    {
        ElementRange union = Union(subResults);
        int[] from = OutputOf(level + 1);
        int[] to = OutputOf(level);
        if (subResults.Length == 1)
        {
            Array.Copy(from, union.Min, to, union.Min, union.Length);
            return union;
        }

        if (subResults.Length != 2)
        {
            throw new InvalidOperationException($"Mergesort merges two halves; got {subResults.Length} subresults.");
        }

        int i = subResults[0].Min;
        int iEnd = subResults[0].Max;
        int j = subResults[1].Min;
        int jEnd = subResults[1].Max;
        int k = union.Min;
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
        return union;
    }

    private int[] OutputOf(int level) => (level & 1) == 1 ? SortedElements : _buffer!;
}
