using DivCon.Skeletons;

namespace DivCon.Samples;

/// <summary>
/// Parallel quicksort (§4.4.4), non-destructive: the level-1 split partitions the source into
/// <see cref="SortBase{TElement}.SortedElements"/> (copying and partitioning in one sweep); deeper splits partition
/// that array in place; a muscle sorts its range with <see cref="Array.Sort{T}(T[], int, int)"/>; merge does nothing.
/// The pivot is the median of <see cref="PivotSampleSize"/> elements spread evenly over the range, so presorted,
/// reverse-sorted and all-equal inputs split near the middle (the median of the first 100 elements, the thesis's
/// rule, degenerates on presorted input to a recursion as deep as the array is long divided by the sample); elements
/// equal to the pivot go to the upper part. With <see cref="ParallelSplitAndMerge"/> (off by default) the level-1
/// partition itself is parallel where the recursion leaves workers idle (<see cref="NestedParallelism"/>). Seeded
/// non-negative random integers. Baseline: copy + <see cref="Array.Sort{T}(T[])"/>.
/// </summary>
public sealed class QuickSort : SortProgram, INestedParallelSample
{
    /// <summary>The catalogue name.</summary>
    public const string ProgramName = "quicksort";

    /// <summary>How many elements, spread evenly over a range, its pivot is the median of.</summary>
    public const int PivotSampleSize = 101;

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

    /// <summary>
    /// Whether the level-1 partition runs in parallel where <see cref="NestedParallelism.Pays"/>. False by default:
    /// the parallel partition makes two passes over the source (count, then copy) where the sequential one makes one,
    /// so on 2 cores it can at best match it; on the loaded 2-core machine it was measured to take 165 ms against
    /// 91 ms for the sequential partition (medians of 15 interleaved medium runs each). Turn it on for more cores.
    /// </summary>
    public bool ParallelSplitAndMerge { get; set; }

    /// <summary>The number of integers for each size: small 2^18, medium 2^23, thesis 2^26 (§4.4.4).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is not defined.</exception>
    public static int LengthFor(ProblemSize size) =>
        SampleRun.BySize(size, 1 << 18, 1 << 23, 1 << 26);

    /// <summary>The median of <see cref="PivotSampleSize"/> elements of <paramref name="array"/>[min, max) spread evenly over it (all of them if fewer).</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is empty or outside the array.</exception>
    public static int SpreadMedian(int[] array, int min, int max)
    {
        ArgumentNullException.ThrowIfNull(array);
        ArgumentOutOfRangeException.ThrowIfNegative(min);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(max, min);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(max, array.Length);
        int length = max - min;
        int count = Math.Min(PivotSampleSize, length);
        Span<int> sample = stackalloc int[PivotSampleSize];
        sample = sample[..count];
        for (int k = 0; k < count; k++)
        {
            // Evenly spaced from the first element to the last: k · (length − 1) / (count − 1).
            sample[k] = array[min + (count == 1 ? 0 : (int)((long)k * (length - 1) / (count - 1)))];
        }

        sample.Sort();
        return sample[count / 2];
    }

    /// <summary>Partitions the range around its spread median into [min, p) &lt; pivot ≤ [p, max).</summary>
    protected override ValueTask<ElementRange[]> SplitAsync(ElementRange problem, DivConContext context) =>
        context.Level == 1 && ParallelSplitAndMerge && NestedParallelism.Pays(context, BranchingFactor)
            ? PartitionTopInParallelAsync(problem, context)
            : new(Split(problem, context));

    /// <summary>Partitions the range around its spread median into [min, p) &lt; pivot ≤ [p, max), sequentially.</summary>
    protected override ElementRange[] Split(ElementRange problem, DivConContext context)
    {
        int min = problem.Min;
        int max = problem.Max;
        int[] sorted = SortedElements;

        // Level 1 reads the untouched source and writes the partition into the output (the non-destructive copy);
        // below level 1 the range already lives in the output and is partitioned in place.
        bool top = context.Level == 1;
        int[] from = top ? SourceElements : sorted;
        int pivot = SpreadMedian(from, min, max);
        int split = top
            ? PartitionInto(from, sorted, min, max, pivot, orEqual: false)
            : PartitionInPlace(sorted, min, max, pivot, orEqual: false);
        if (split == min)
        {
            // The pivot is the smallest value of the range: put the elements equal to it below the split instead.
            // The pivot is an element of the range, so the lower part is now non-empty.
            split = top
                ? PartitionInto(from, sorted, min, max, pivot, orEqual: true)
                : PartitionInPlace(sorted, min, max, pivot, orEqual: true);
        }

        return Halves(min, split, max);
    }

    /// <summary>Sorts the range; at level 1 (the sequential elision) it first copies the range from the source.</summary>
    protected override ElementRange ExecuteMuscle(ElementRange problem, DivConContext context)
    {
        if (context.Level == 1)
        {
            Array.Copy(SourceElements, problem.Min, SortedElements, problem.Min, problem.Length);
        }

        return base.ExecuteMuscle(problem, context);
    }

    // The two parts of [min, max) split at `split`, both non-empty: when no element is below or above the pivot (the
    // range is one repeated value, sorted in any split) it halves the range, so each part is smaller than the problem.
    private static ElementRange[] Halves(int min, int split, int max)
    {
        if (split == max)
        {
            split = min + ((max - min) / 2);
        }

        return [new ElementRange(min, split), new ElementRange(split, max)];
    }

    // The level-1 partition of the source into the output with the workers the recursion leaves idle there: blocks of
    // the source count their elements below the limit in parallel, a prefix sum gives each block where its low and
    // high elements go, and the blocks copy them there in parallel (a stable partition; the sequential one writes the
    // high part in reverse, which the sort that follows makes no difference to).
    private async ValueTask<ElementRange[]> PartitionTopInParallelAsync(ElementRange problem, DivConContext context)
    {
        int min = problem.Min;
        int max = problem.Max;
        int[] source = SourceElements;
        int[] target = SortedElements;
        int pivot = SpreadMedian(source, min, max);
        int length = max - min;
        int blocks = NestedParallelism.Blocks(context, length);
        int[] lows = new int[blocks];
        long limit = pivot;
        await CountBelowAsync().ConfigureAwait(false);
        if (lows.Sum() == 0)
        {
            // As in Split: the pivot is the smallest value, so put the elements equal to it below the split.
            limit = (long)pivot + 1;
            await CountBelowAsync().ConfigureAwait(false);
        }

        int[] lowStart = new int[blocks];
        int[] highStart = new int[blocks];
        int split = min;
        for (int b = 0; b < blocks; b++)
        {
            lowStart[b] = split;
            split += lows[b];
        }

        int high = split;
        for (int b = 0; b < blocks; b++)
        {
            highStart[b] = high;
            high += BlockLength(b) - lows[b];
        }

        await context.ForAsync(0, blocks, b =>
        {
            int low = lowStart[b];
            int up = highStart[b];
            for (int i = min + NestedParallelism.BlockStart(b, blocks, length); i < min + NestedParallelism.BlockStart(b + 1, blocks, length); i++)
            {
                int value = source[i];
                if (value < limit)
                {
                    target[low++] = value;
                }
                else
                {
                    target[up++] = value;
                }
            }
        }).ConfigureAwait(false);

        return Halves(min, split, max);

        int BlockLength(int b) => NestedParallelism.BlockStart(b + 1, blocks, length) - NestedParallelism.BlockStart(b, blocks, length);

        ValueTask CountBelowAsync() => context.ForAsync(0, blocks, b =>
        {
            int count = 0;
            for (int i = min + NestedParallelism.BlockStart(b, blocks, length); i < min + NestedParallelism.BlockStart(b + 1, blocks, length); i++)
            {
                if (source[i] < limit)
                {
                    count++;
                }
            }

            lows[b] = count;
        });
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
