namespace DivCon.Skeletons;

/// <summary>
/// The base of sorting programs (§4.3, §4.5.1). Sorting is non-destructive: <see cref="ElementsBase{TElement, TResult}.SourceElements"/>
/// is never written; the sorted output goes to <see cref="SortedElements"/>, a separate array made once by
/// <see cref="TestableDivCon{TParam, TResult}.Initialize"/> and overwritten by every run, so every run sorts the same
/// unsorted input. A result is the range of <see cref="SortedElements"/> that is now sorted. Because every run writes
/// that one array, an instance runs one problem at a time (<see cref="SupportsConcurrentRuns"/> is false): a second
/// run started while one is in progress throws <see cref="InvalidOperationException"/>; use one instance per
/// concurrent sort.
/// </summary>
/// <typeparam name="TElement">The element type, ordered by <see cref="Comparer{T}.Default"/>.</typeparam>
public abstract class SortBase<TElement> : ElementsBase<TElement, ElementRange>
{
    private TElement[]? _sorted;

    /// <summary>Creates the program over <paramref name="length"/> elements generated from <paramref name="seed"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="length"/> is negative or larger than <see cref="Array.MaxLength"/>, or <paramref name="branchingFactor"/> is less than 2.</exception>
    protected SortBase(int length, int seed, int branchingFactor = 2, TaskScheduler? scheduler = null)
        : base(length, seed, branchingFactor, scheduler)
    {
    }

    /// <summary>The output array: after a successful run, <see cref="ElementsBase{TElement, TResult}.SourceElements"/> in sorted order.</summary>
    /// <exception cref="InvalidOperationException"><see cref="TestableDivCon{TParam, TResult}.Initialize"/> has not run.</exception>
    public TElement[] SortedElements =>
        _sorted ?? throw new InvalidOperationException("The output array is made by Initialize(); call it (or run the program) first.");

    /// <summary>False: every run writes <see cref="SortedElements"/>.</summary>
    protected override bool SupportsConcurrentRuns => false;

    /// <inheritdoc/>
    protected override void InitializeCore()
    {
        base.InitializeCore();
        _sorted = new TElement[Length];
    }

    /// <summary>
    /// Sorts the range of <see cref="SortedElements"/> in place with <see cref="Array.Sort{T}(T[], int, int)"/>; a
    /// derived program first puts the range's elements there.
    /// </summary>
    protected override ElementRange ExecuteMuscle(ElementRange problem, DivConContext context)
    {
        Array.Sort(SortedElements, problem.Min, problem.Length);
        return problem;
    }

    /// <summary>The union of the subresults, which must be adjacent ranges in order.</summary>
    /// <exception cref="InvalidOperationException">The subresults are not adjacent ranges in order.</exception>
    protected override ElementRange Merge(ElementRange[] subResults, DivConContext context) => Union(subResults);

    /// <summary>The union of <paramref name="ranges"/>, which must be adjacent and in order.</summary>
    /// <exception cref="InvalidOperationException">The ranges are not adjacent and in order.</exception>
    protected static ElementRange Union(ElementRange[] ranges)
    {
        ArgumentNullException.ThrowIfNull(ranges);
        for (int i = 1; i < ranges.Length; i++)
        {
            if (ranges[i].Min != ranges[i - 1].Max)
            {
                throw new InvalidOperationException($"Sorted ranges {ranges[i - 1]} and {ranges[i]} are not adjacent.");
            }
        }

        return new ElementRange(ranges[0].Min, ranges[^1].Max);
    }
}
