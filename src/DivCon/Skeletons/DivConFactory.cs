namespace DivCon.Skeletons;

/// <summary>
/// The declarative model (§4.1.4): a D&amp;C program from its four muscles as lambdas, for example the quicksort of
/// Figure 4.3. The functions may be called concurrently from several workers.
/// </summary>
public static class DivConFactory
{
    /// <summary>Creates a D&amp;C program whose muscles all receive the recursion level (1 = top).</summary>
    /// <exception cref="ArgumentNullException">The scheduler or any function is null.</exception>
    public static DivConBase<TParam, TResult> Create<TParam, TResult>(
        TaskScheduler taskScheduler,
        Func<TParam, int, bool> shouldSplit,
        Func<TParam, int, TParam[]> split,
        Func<TParam, int, TResult> executeMuscle,
        Func<TResult[], int, TResult> merge)
    {
        ArgumentNullException.ThrowIfNull(taskScheduler);
        ArgumentNullException.ThrowIfNull(shouldSplit);
        ArgumentNullException.ThrowIfNull(split);
        ArgumentNullException.ThrowIfNull(executeMuscle);
        ArgumentNullException.ThrowIfNull(merge);
        return new DelegateDivCon<TParam, TResult>(taskScheduler, shouldSplit, split, executeMuscle, merge);
    }

    /// <summary>Creates a D&amp;C program; only <paramref name="shouldSplit"/> receives the recursion level (the shape of Figure 4.3).</summary>
    /// <exception cref="ArgumentNullException">The scheduler or any function is null.</exception>
    public static DivConBase<TParam, TResult> Create<TParam, TResult>(
        TaskScheduler taskScheduler,
        Func<TParam, int, bool> shouldSplit,
        Func<TParam, TParam[]> split,
        Func<TParam, TResult> executeMuscle,
        Func<TResult[], TResult> merge)
    {
        ArgumentNullException.ThrowIfNull(split);
        ArgumentNullException.ThrowIfNull(executeMuscle);
        ArgumentNullException.ThrowIfNull(merge);
        return Create<TParam, TResult>(
            taskScheduler, shouldSplit, (p, _) => split(p), (p, _) => executeMuscle(p), (r, _) => merge(r));
    }

    private sealed class DelegateDivCon<TParam, TResult> : DivConBase<TParam, TResult>
    {
        private readonly Func<TParam, int, bool> _shouldSplit;
        private readonly Func<TParam, int, TParam[]> _split;
        private readonly Func<TParam, int, TResult> _executeMuscle;
        private readonly Func<TResult[], int, TResult> _merge;

        public DelegateDivCon(
            TaskScheduler scheduler,
            Func<TParam, int, bool> shouldSplit,
            Func<TParam, int, TParam[]> split,
            Func<TParam, int, TResult> executeMuscle,
            Func<TResult[], int, TResult> merge)
            : base(scheduler)
        {
            _shouldSplit = shouldSplit;
            _split = split;
            _executeMuscle = executeMuscle;
            _merge = merge;
        }

        protected override bool ShouldSplit(TParam problem, int level) => _shouldSplit(problem, level);

        protected override TParam[] Split(TParam problem, int level) => _split(problem, level);

        protected override TResult ExecuteMuscle(TParam problem, int level) => _executeMuscle(problem, level);

        protected override TResult Merge(TResult[] subResults, int level) => _merge(subResults, level);
    }
}
