namespace DivCon.Skeletons;

/// <summary>
/// Map-reduce as a D&amp;C program (§4.3, Figure 4.10): a muscle maps every element of its range and reduces the
/// mapped values; a merge reduces the subresults. <see cref="Reduce(TResult, TResult)"/> must be associative.
/// </summary>
/// <typeparam name="TElement">The element type.</typeparam>
/// <typeparam name="TResult">The type of a mapped value and of a result.</typeparam>
public abstract class MapReduce<TElement, TResult> : ElementsBase<TElement, TResult>
{
    /// <summary>Creates the program over <paramref name="length"/> (at least 1) elements generated from <paramref name="seed"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="length"/> is less than 1 or larger than <see cref="Array.MaxLength"/>, or <paramref name="branchingFactor"/> is less than 2.</exception>
    protected MapReduce(int length, int seed, int branchingFactor = 2, TaskScheduler? scheduler = null)
        : base(length, seed, branchingFactor, scheduler)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(length);
    }

    /// <summary>Maps one element.</summary>
    protected abstract TResult Map(TElement element);

    /// <summary>Combines two values; must be associative.</summary>
    protected abstract TResult Reduce(TResult first, TResult second);

    /// <summary>Combines several values from left to right (at least one).</summary>
    protected virtual TResult Reduce(TResult[] results)
    {
        TResult accumulator = results[0];
        for (int i = 1; i < results.Length; i++)
        {
            accumulator = Reduce(accumulator, results[i]);
        }

        return accumulator;
    }

    /// <summary>Maps and reduces the (non-empty) range.</summary>
    protected override TResult ExecuteMuscle(ElementRange problem, DivConContext context)
    {
        TElement[] elements = SourceElements;
        TResult accumulator = Map(elements[problem.Min]);
        for (int i = problem.Min + 1; i < problem.Max; i++)
        {
            accumulator = Reduce(accumulator, Map(elements[i]));
        }

        return accumulator;
    }

    /// <summary>Reduces the subresults.</summary>
    protected override TResult Merge(TResult[] subResults, DivConContext context) => Reduce(subResults);
}
