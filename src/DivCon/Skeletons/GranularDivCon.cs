namespace DivCon.Skeletons;

/// <summary>
/// A D&amp;C program that knows the size of its problems (§4.3, §4.5.2, Figure 4.17): it splits while a subproblem is
/// larger than <see cref="Granularity"/>. The framework can then choose the granularity automatically (k execute
/// muscles per core, default 4) or run the sequential elision (<see cref="Granularity"/> = <see cref="ProblemSize"/>:
/// one muscle, no split, no merge).
/// </summary>
/// <typeparam name="TParam">The type of a problem or subproblem.</typeparam>
/// <typeparam name="TResult">The type of a result or subresult.</typeparam>
public abstract class GranularDivCon<TParam, TResult> : TestableDivCon<TParam, TResult>
{
    /// <summary>The default target of execute muscles per core (§4.5.2, §7.1).</summary>
    public const int DefaultMusclesPerCore = 4;

    // 0 until first read or set: then the automatic default is computed (ComputeGranularity is virtual, so it is not
    // called from this constructor). Concurrent first reads compute the same value: the race is harmless.
    private long _granularity;

    /// <summary>
    /// Creates the program for a top-level problem of size <paramref name="problemSize"/>, with automatic granularity
    /// for <see cref="Environment.ProcessorCount"/> cores and <see cref="DefaultMusclesPerCore"/> muscles per core.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="problemSize"/> is negative.</exception>
    protected GranularDivCon(long problemSize, TaskScheduler? scheduler = null)
        : base(scheduler)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(problemSize);
        ProblemSize = problemSize;
    }

    /// <summary>The size of the top-level problem, in the units of <see cref="GetProblemSize"/>.</summary>
    public long ProblemSize { get; }

    /// <summary>
    /// The subproblem size at or below which splitting stops. At least 1. Unless set, the automatic granularity for
    /// <see cref="Environment.ProcessorCount"/> cores and <see cref="DefaultMusclesPerCore"/> muscles per core.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Set to 0 or less.</exception>
    public long Granularity
    {
        get
        {
            long granularity = _granularity;
            return granularity != 0 ? granularity : _granularity = ComputeGranularity((long)Environment.ProcessorCount * DefaultMusclesPerCore);
        }

        set
        {
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value);
            _granularity = value;
        }
    }

    /// <summary>Whether the program runs as its sequential elision (<see cref="Granularity"/> ≥ <see cref="ProblemSize"/>).</summary>
    public bool IsSequentialElision => Granularity >= ProblemSize;

    /// <summary>
    /// Sets <see cref="Granularity"/> for about <paramref name="cores"/> · <paramref name="musclesPerCore"/> execute
    /// muscles, by <see cref="ComputeGranularity"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="cores"/> or <paramref name="musclesPerCore"/> is less than 1.</exception>
    public void UseAutomaticGranularity(int cores, int musclesPerCore = DefaultMusclesPerCore)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(cores);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(musclesPerCore);
        Granularity = ComputeGranularity((long)cores * musclesPerCore);
    }

    /// <summary>Sets <see cref="Granularity"/> to <see cref="ProblemSize"/> (at least 1): one muscle, no split, no merge.</summary>
    public void UseSequentialElision() => Granularity = Math.Max(1, ProblemSize);

    /// <summary>
    /// The granularity that gives about <paramref name="targetMuscles"/> execute muscles. The default is
    /// <see cref="GranularityRules.Balanced"/>; a program whose split does not divide the size by its branching factor
    /// (Strassen) overrides it.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="targetMuscles"/> is less than 1.</exception>
    public virtual long ComputeGranularity(long targetMuscles) => GranularityRules.Balanced(ProblemSize, targetMuscles);

    /// <summary>The size of <paramref name="problem"/> (for example the number of elements in its range).</summary>
    protected abstract long GetProblemSize(TParam problem);

    /// <summary>Splits while the subproblem is larger than <see cref="Granularity"/>; may be overridden to be more restrictive.</summary>
    protected override bool ShouldSplit(TParam problem, DivConContext context) => GetProblemSize(problem) > Granularity;

    /// <summary>Gives <see cref="GetProblemSize"/>, so that a split whose subproblem is not smaller than its problem faults the run.</summary>
    protected sealed override bool TryGetProblemSize(TParam problem, out long size)
    {
        size = GetProblemSize(problem);
        return true;
    }
}
