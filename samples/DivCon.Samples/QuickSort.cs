using DivCon.Skeletons;

namespace DivCon.Samples;

/// <summary>
/// Parallel quicksort (§4.4.4), non-destructive: the level-1 split partitions the source into
/// <see cref="SortBase{TElement}.SortedElements"/> (copying and partitioning in one sweep); deeper splits partition
/// that array in place; a muscle sorts its range with <see cref="Array.Sort{T}(T[], int, int)"/>; merge does nothing.
/// The pivot is the median of the first (up to) 100 elements of the range; elements equal to the pivot go to the
/// upper part. Seeded non-negative random integers. Baseline: copy + <see cref="Array.Sort{T}(T[])"/>.
/// </summary>
public sealed class QuickSort : SortProgram
{
    /// <summary>The catalogue name.</summary>
    public const string ProgramName = "quicksort";

    /// <summary>How many leading elements of a range the pivot is the median of (§4.4.4).</summary>
    public const int PivotSampleSize = 100;

    /// <summary>Creates the program for a named size; the data is made on <see cref="TestableDivCon{TParam, TResult}.Initialize"/> or the first run.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public QuickSort(ProblemSize size, int seed = SampleCatalog.DefaultSeed)
        : this(size, LengthFor(size), seed)
    {
    }

    internal QuickSort(ProblemSize size, int length, int seed)
        : base(size, length, seed)
    {
    }

    // Tests: sorts a copy of the given elements instead of random ones.
    internal QuickSort(int[] elements)
        : base(Samples.ProblemSize.Small, elements.Length, seed: 0, preset: elements)
    {
    }

    /// <inheritdoc/>
    public override string Name => ProgramName;

    /// <summary>The number of integers for each size: small 2^18, medium 2^23, thesis 2^26 (§4.4.4).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public static int LengthFor(ProblemSize size) =>
        SampleRun.BySize(size, 1 << 18, 1 << 23, 1 << 26);

    /// <summary>Partitions the range around the median of its first 100 elements into [min, p) &lt; pivot ≤ [p, max).</summary>
    protected override ElementRange[] Split(ElementRange problem, int level)
    {
        int min = problem.Min;
        int max = problem.Max;
        int[] sorted = SortedElements;

        // Level 1 reads the untouched source and writes the partition into the output (the non-destructive copy);
        // below level 1 the range already lives in the output and is partitioned in place.
        int[] from = level == 1 ? SourceElements : sorted;
        int pivot = MedianOfFirst(from, min, max);
        int split = level == 1
            ? PartitionInto(from, sorted, min, max, pivot, orEqual: false)
            : PartitionInPlace(sorted, min, max, pivot, orEqual: false);
        if (split == min)
        {
            // The pivot is the smallest value of the range: put the elements equal to it below the split instead.
            // The pivot is an element of the range, so the lower part is now non-empty.
            split = level == 1
                ? PartitionInto(from, sorted, min, max, pivot, orEqual: true)
                : PartitionInPlace(sorted, min, max, pivot, orEqual: true);
            if (split == max)
            {
                // No element is below or above the pivot: the range is one repeated value, already sorted in any
                // split. Halve it so that each part is smaller than the problem.
                split = min + ((max - min) / 2);
            }
        }

        return [new ElementRange(min, split), new ElementRange(split, max)];
    }

    /// <summary>Sorts the range; at level 1 (the sequential elision) it first copies the range from the source.</summary>
    protected override ElementRange ExecuteMuscle(ElementRange problem, int level)
    {
        if (level == 1)
        {
            Array.Copy(SourceElements, problem.Min, SortedElements, problem.Min, problem.Length);
        }

        return base.ExecuteMuscle(problem, level);
    }

    private static int MedianOfFirst(int[] array, int min, int max)
    {
        int count = Math.Min(PivotSampleSize, max - min);
        Span<int> sample = stackalloc int[PivotSampleSize];
        sample = sample[..count];
        array.AsSpan(min, count).CopyTo(sample);
        sample.Sort();
        return sample[count / 2];
    }

    // Writes source[min, max) into target[min, max): values below the limit from the front, the others from the back.
    private static int PartitionInto(int[] source, int[] target, int min, int max, int pivot, bool orEqual)
    {
        long limit = orEqual ? (long)pivot + 1 : pivot; // value < limit goes low
        int low = min;
        int high = max;
        for (int i = min; i < max; i++)
        {
            int value = source[i];
            if (value < limit)
            {
                target[low++] = value;
            }
            else
            {
                target[--high] = value;
            }
        }

        return low;
    }

    // Hoare-style: afterwards [min, result) < limit ≤ [result, max).
    private static int PartitionInPlace(int[] array, int min, int max, int pivot, bool orEqual)
    {
        long limit = orEqual ? (long)pivot + 1 : pivot;
        int i = min;
        int j = max - 1;
        while (true)
        {
            while (i <= j && array[i] < limit)
            {
                i++;
            }

            while (i <= j && array[j] >= limit)
            {
                j--;
            }

            if (i >= j)
            {
                return i;
            }

            (array[i], array[j]) = (array[j], array[i]);
            i++;
            j--;
        }
    }
}
