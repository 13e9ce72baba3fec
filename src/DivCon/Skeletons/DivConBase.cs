namespace DivCon.Skeletons;

/// <summary>
/// The divide-and-conquer skeleton (§4.1, Figure 4.1): a program supplies the four muscles
/// <see cref="ShouldSplit"/>, <see cref="Split"/>, <see cref="ExecuteMuscle"/> and <see cref="Merge"/>, and
/// <see cref="Input(TParam)"/> runs the recursion as a graph of tasks, every one of them created on a
/// <see cref="TaskScheduler"/> the caller chooses (§4.1.3).
/// </summary>
/// <remarks>
/// <para>
/// The recursion starts at level 1 (the top-level problem). A problem for which <see cref="ShouldSplit"/> returns
/// true at level <c>L</c> is split into subproblems processed at level <c>L + 1</c>; their results are merged at
/// level <c>L</c>. A problem that is not split is solved by one <see cref="ExecuteMuscle"/> call.
/// </para>
/// <para>
/// By default the recursion is asynchronous (<see cref="DivConExecution.Asynchronous"/>, §4.2.2): no task ever waits
/// for another. <see cref="DivConExecution.ForkJoin"/> selects the blocking variant of §4.2.1, for comparison only.
/// </para>
/// <para>
/// Outcome of the returned task: the top-level result; or faulted with every exception thrown by a muscle (each the
/// original exception object; <c>await</c> rethrows the first); or canceled when the token passed to
/// <see cref="Input(TParam, CancellationToken)"/> is canceled before the result is ready (a fault wins over a
/// cancellation). After the first fault or the cancellation no further split, execute or merge call starts. In the
/// asynchronous mode the returned task completes only after every task of the recursion has finished its muscle
/// call, so nothing of the run is left running on the scheduler (see <c>DivConBase.Asynchronous.cs</c>).
/// </para>
/// <para>
/// One instance can run several problems concurrently; its settings (<see cref="Scheduler"/>,
/// <see cref="Execution"/>, <see cref="Profiler"/>) are read once when <c>Input</c> is called.
/// </para>
/// </remarks>
/// <typeparam name="TParam">The type of a problem or subproblem.</typeparam>
/// <typeparam name="TResult">The type of a result or subresult.</typeparam>
public abstract partial class DivConBase<TParam, TResult>
{
    private TaskScheduler _scheduler;

    /// <summary>Creates the skeleton; its tasks go to <paramref name="scheduler"/>, or to <see cref="TaskScheduler.Default"/> when null.</summary>
    protected DivConBase(TaskScheduler? scheduler = null)
    {
        _scheduler = scheduler ?? TaskScheduler.Default;
    }

    /// <summary>The scheduler on which <see cref="Input(TParam)"/> creates every task. Not null.</summary>
    /// <exception cref="ArgumentNullException">Set to null.</exception>
    public TaskScheduler Scheduler
    {
        get => _scheduler;
        set
        {
            ArgumentNullException.ThrowIfNull(value);
            _scheduler = value;
        }
    }

    /// <summary>Asynchronous recursion (the default) or the blocking fork-join variant kept for comparison.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Set to an undefined value.</exception>
    public DivConExecution Execution
    {
        get;
        set
        {
            if (value is not (DivConExecution.Asynchronous or DivConExecution.ForkJoin))
            {
                throw new ArgumentOutOfRangeException(nameof(value), value, "Allowed: Asynchronous, ForkJoin.");
            }

            field = value;
        }
    }

    /// <summary>
    /// Phase profiling hooks (§7.3): when not null, every split, execute and merge call is counted and timed per
    /// recursion level. Null (off) by default; off costs one null check per call.
    /// </summary>
    public PhaseProfiler? Profiler { get; set; }

    /// <summary>Runs the recursion for <paramref name="problem"/> on <see cref="Scheduler"/>.</summary>
    /// <returns>A task that completes with the result of the top-level problem (see the class remarks for faults).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="problem"/> is null.</exception>
    public Task<TResult> Input(TParam problem) => Input(problem, _scheduler, CancellationToken.None);

    /// <summary>Runs the recursion for <paramref name="problem"/> on <see cref="Scheduler"/>, observing <paramref name="cancellationToken"/>.</summary>
    /// <returns>A task that completes with the result, faults, or is canceled (see the class remarks).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="problem"/> is null.</exception>
    public Task<TResult> Input(TParam problem, CancellationToken cancellationToken) =>
        Input(problem, _scheduler, cancellationToken);

    /// <summary>
    /// Runs the recursion for <paramref name="problem"/>, creating every task on <paramref name="scheduler"/>
    /// (overriding <see cref="Scheduler"/> for this run), observing <paramref name="cancellationToken"/>.
    /// Arguments are checked before any task is scheduled.
    /// </summary>
    /// <returns>A task that completes with the result, faults, or is canceled (see the class remarks).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="problem"/> or <paramref name="scheduler"/> is null.</exception>
    public Task<TResult> Input(TParam problem, TaskScheduler scheduler, CancellationToken cancellationToken = default)
    {
        if (problem is null)
        {
            throw new ArgumentNullException(nameof(problem), "The top-level problem must not be null.");
        }

        ArgumentNullException.ThrowIfNull(scheduler);
        if (cancellationToken.IsCancellationRequested)
        {
            return Task.FromCanceled<TResult>(cancellationToken);
        }

        return Execution == DivConExecution.ForkJoin
            ? StartForkJoin(problem, scheduler, cancellationToken)
            : StartAsynchronous(problem, scheduler, cancellationToken);
    }

    /// <summary>Whether <paramref name="problem"/>, at recursion <paramref name="level"/> (1 = top), is to be split rather than solved directly.</summary>
    protected abstract bool ShouldSplit(TParam problem, int level);

    /// <summary>Divides <paramref name="problem"/> into subproblems (at least one; null or empty faults the run).</summary>
    protected abstract TParam[] Split(TParam problem, int level);

    /// <summary>Solves <paramref name="problem"/> sequentially (the base case of the recursion).</summary>
    protected abstract TResult ExecuteMuscle(TParam problem, int level);

    /// <summary>Combines the subresults of one split, in the order of the subproblems <see cref="Split"/> returned.</summary>
    protected abstract TResult Merge(TResult[] subResults, int level);

    // Shared by both execution modes: the check that Split kept its contract.
    private static TParam[] CheckSplit(TParam[]? subProblems, int level)
    {
        if (subProblems is null || subProblems.Length == 0)
        {
            throw new InvalidOperationException(
                $"Split returned {(subProblems is null ? "null" : "no subproblems")} at level {level}: it must return at least one subproblem. " +
                "Return false from ShouldSplit for problems that cannot be divided.");
        }

        return subProblems;
    }
}
