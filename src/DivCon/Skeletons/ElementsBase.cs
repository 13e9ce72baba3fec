namespace DivCon.Skeletons;

/// <summary>
/// The base of programs over a large array of elements (§4.3): map-reduce and sorting. A problem is an
/// <see cref="ElementRange"/> of <see cref="SourceElements"/>; the default split divides it evenly into
/// <see cref="TestableDivCon{TParam, TResult}.BranchingFactor"/> subranges; the size of a problem is its length.
/// The elements are generated once, from <see cref="Seed"/>, by <see cref="TestableDivCon{TParam, TResult}.Initialize"/>.
/// </summary>
/// <typeparam name="TElement">The element type.</typeparam>
/// <typeparam name="TResult">The type of a result or subresult.</typeparam>
public abstract class ElementsBase<TElement, TResult> : GranularDivCon<ElementRange, TResult>
{
    private readonly int _branchingFactor;
    private TElement[]? _source;

    /// <summary>Creates the program over <paramref name="length"/> elements generated from <paramref name="seed"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="length"/> is negative or larger than <see cref="Array.MaxLength"/>, or <paramref name="branchingFactor"/> is less than 2.</exception>
    protected ElementsBase(int length, int seed, int branchingFactor = 2, TaskScheduler? scheduler = null)
        : base(length, scheduler)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(length, Array.MaxLength);
        ArgumentOutOfRangeException.ThrowIfLessThan(branchingFactor, 2);
        Length = length;
        Seed = seed;
        _branchingFactor = branchingFactor;
    }

    /// <summary>The number of elements (equal to <see cref="GranularDivCon{TParam, TResult}.ProblemSize"/>).</summary>
    public int Length { get; }

    /// <summary>The seed the elements are generated from.</summary>
    public int Seed { get; }

    /// <inheritdoc/>
    public override int BranchingFactor => _branchingFactor;

    /// <summary>The input elements.</summary>
    /// <exception cref="InvalidOperationException"><see cref="TestableDivCon{TParam, TResult}.Initialize"/> has not run.</exception>
    public TElement[] SourceElements =>
        _source ?? throw new InvalidOperationException("The elements are made by Initialize(); call it (or run the program) first.");

    /// <summary>Makes the elements; called once, by <see cref="TestableDivCon{TParam, TResult}.Initialize"/>.</summary>
    /// <returns>An array of exactly <paramref name="length"/> elements, the same for the same seed.</returns>
    protected abstract TElement[] GenerateElements(int length, int seed);

    /// <inheritdoc/>
    protected override void InitializeCore()
    {
        TElement[] source = GenerateElements(Length, Seed);
        if (source is null || source.Length != Length)
        {
            throw new InvalidOperationException($"GenerateElements must return {Length} elements.");
        }

        _source = source;
    }

    /// <inheritdoc/>
    protected override ElementRange CreateRootProblem() => new(0, Length);

    /// <inheritdoc/>
    protected override long GetProblemSize(ElementRange problem) => problem.Length;

    /// <summary>Divides the range evenly into <see cref="TestableDivCon{TParam, TResult}.BranchingFactor"/> subranges (fewer if it is shorter).</summary>
    protected override ElementRange[] Split(ElementRange problem, DivConContext context) => problem.Split(_branchingFactor);
}
