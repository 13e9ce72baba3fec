namespace DivCon.Skeletons;

/// <summary>
/// The divide-and-conquer skeleton (§4.1, Figure 4.1): a program supplies the four muscles
/// <see cref="ShouldSplit"/>, <see cref="Split"/>, <see cref="ExecuteMuscle"/> and <see cref="Merge"/>, and
/// <see cref="RunAsync(TParam, CancellationToken)"/> runs the recursion as a graph of tasks, every one of them
/// created on one <see cref="TaskScheduler"/> (§4.1.3).
/// </summary>
/// <remarks>
/// <para>
/// The recursion starts at level 1 (the top-level problem). A problem for which <see cref="ShouldSplit"/> returns
/// true at level <c>L</c> is split into subproblems processed at level <c>L + 1</c>; their results are merged at
/// level <c>L</c>. A problem that is not split is solved by one <see cref="ExecuteMuscle"/> call. Every muscle gets a
/// <see cref="DivConContext"/>: the level, the run's cancellation token and scheduler, and
/// <see cref="DivConContext.ForAsync"/> for parallelism inside a split or merge.
/// </para>
/// <para>
/// Asynchronous muscles: the skeleton calls <see cref="SplitAsync"/>, <see cref="ExecuteMuscleAsync"/> and
/// <see cref="MergeAsync"/>, whose default implementations call the synchronous muscles (as
/// <see cref="Stream.ReadAsync(byte[], int, int, CancellationToken)"/> calls <see cref="Stream.Read(byte[], int, int)"/>).
/// Override them to await I/O or nested parallel work without holding a worker.
/// </para>
/// <para>Guarantees of a run (both <see cref="DivConExecution"/> modes):</para>
/// <list type="bullet">
/// <item><b>Exactly once.</b> Each subproblem that starts is split or executed once; the results of each split are
/// merged once; the returned task completes once.</item>
/// <item><b>Order.</b> <see cref="Merge"/> receives the subresults in the order <see cref="Split"/> returned the
/// subproblems, whatever order they finished in: a non-commutative merge (concatenation) is safe.</item>
/// <item><b>Faults.</b> The first exception from a muscle stops the run: no further muscle call starts, calls already
/// running finish, and the task faults with every exception recorded (each the original object; <c>await</c>
/// rethrows the first). An <see cref="OperationCanceledException"/> a muscle throws for a token other than the run's
/// (an <c>HttpClient</c> timeout) is a fault too.</item>
/// <item><b>Cancellation.</b> When the caller's token is canceled before the result is ready, no further muscle call
/// starts and the task ends canceled, unless a muscle faulted: a fault wins over a cancellation. A muscle that
/// throws <see cref="OperationCanceledException"/> for the caller's token or for
/// <see cref="DivConContext.CancellationToken"/> is part of the stop, not a fault.</item>
/// <item><b>Nothing left running.</b> The task completes only after every muscle call of the run has returned (and
/// every asynchronous muscle's task has completed).</item>
/// <item><b>Bad splits.</b> A split that returns null, no subproblems, or a subproblem equal to its problem
/// (<see cref="EqualityComparer{T}.Default"/>; for a class without its own equality, the same instance), or, when
/// <see cref="TryGetProblemSize"/> gives sizes, a subproblem that is not smaller, faults the run with an
/// <see cref="InvalidOperationException"/> naming the level, instead of recursing without end.</item>
/// </list>
/// <para>
/// One instance can run several problems concurrently unless <see cref="SupportsConcurrentRuns"/> is false; its
/// settings (<see cref="Scheduler"/>, <see cref="Execution"/>, <see cref="HideScheduler"/>, <see cref="Profiler"/>)
/// are read once when a run starts.
/// </para>
/// </remarks>
/// <typeparam name="TParam">The type of a problem or subproblem.</typeparam>
/// <typeparam name="TResult">The type of a result or subresult.</typeparam>
public abstract partial class DivConBase<TParam, TResult>
{
    // 1 while a run of an instance with SupportsConcurrentRuns == false is in progress: set by RunAsync (CAS), cleared
    // by the run's completion (Run.Complete) before its task completes, so that the caller's next run can start.
    private int _exclusiveRunActive;

    /// <summary>
    /// Creates the skeleton; its tasks go to <paramref name="scheduler"/>, or, when null, to the scheduler current where
    /// <see cref="RunAsync(TParam, CancellationToken)"/> is called (<see cref="TaskScheduler.Current"/>, as
    /// <see cref="ParallelOptions.TaskScheduler"/> does).
    /// </summary>
    protected DivConBase(TaskScheduler? scheduler = null)
    {
        Scheduler = scheduler;
    }

    /// <summary>
    /// The scheduler on which a run creates every task; null (the default): <see cref="TaskScheduler.Current"/> at the
    /// call of <see cref="RunAsync(TParam, CancellationToken)"/> (<see cref="TaskScheduler.Default"/> outside a task).
    /// </summary>
    public TaskScheduler? Scheduler { get; set; }

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
    /// Whether muscles see <see cref="TaskScheduler.Default"/> as <see cref="TaskScheduler.Current"/> instead of the
    /// run's scheduler (<see cref="TaskCreationOptions.HideScheduler"/> on the run's tasks). Off by default: a
    /// <c>Parallel.For</c>, <c>Task.Factory.StartNew</c> or <c>await</c> continuation inside a muscle then runs on the
    /// run's scheduler, within the program's share of the machine. Turn it on for muscles that start work meant for
    /// the thread pool. <see cref="DivConContext.Scheduler"/> gives the run's scheduler either way.
    /// <see cref="DivConExecution.ForkJoin"/> always hides it (see there).
    /// </summary>
    public bool HideScheduler { get; set; }

    /// <summary>
    /// Phase profiling hooks (§7.3): when not null, every split, execute and merge call is counted and timed per
    /// recursion level. Null (off) by default; off costs one null check per call.
    /// </summary>
    public PhaseProfiler? Profiler { get; set; }

    /// <summary>
    /// Whether one instance may run several problems at once. True here; a program whose runs share mutable state
    /// (an output array) returns false, and then a second <c>RunAsync</c> while one is in progress throws.
    /// </summary>
    protected virtual bool SupportsConcurrentRuns => true;

    /// <summary>
    /// Runs the recursion for <paramref name="problem"/> on <see cref="Scheduler"/> (or the current scheduler when it
    /// is null), observing <paramref name="cancellationToken"/>. Arguments are checked before any task is queued.
    /// </summary>
    /// <returns>A task that completes with the result of the top-level problem, faults, or is canceled (see the class remarks).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="problem"/> is null.</exception>
    /// <exception cref="InvalidOperationException">A run is in progress and <see cref="SupportsConcurrentRuns"/> is false.</exception>
    public Task<TResult> RunAsync(TParam problem, CancellationToken cancellationToken = default) =>
        RunAsync(problem, Scheduler ?? TaskScheduler.Current, cancellationToken);

    /// <summary>
    /// Runs the recursion for <paramref name="problem"/>, creating every task on <paramref name="scheduler"/>
    /// (overriding <see cref="Scheduler"/> for this run), observing <paramref name="cancellationToken"/>.
    /// </summary>
    /// <returns>A task that completes with the result, faults, or is canceled (see the class remarks).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="problem"/> or <paramref name="scheduler"/> is null.</exception>
    /// <exception cref="InvalidOperationException">A run is in progress and <see cref="SupportsConcurrentRuns"/> is false.</exception>
    public Task<TResult> RunAsync(TParam problem, TaskScheduler scheduler, CancellationToken cancellationToken = default)
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

        bool exclusive = !SupportsConcurrentRuns;
        if (exclusive && Interlocked.CompareExchange(ref _exclusiveRunActive, 1, 0) != 0)
        {
            throw new InvalidOperationException(
                $"{GetType().Name} runs one problem at a time (its runs share state such as an output array), and a run is in progress. " +
                "Await it first, or use one instance per concurrent run.");
        }

        DivConExecution execution = Execution;
        var creationOptions = TaskCreationOptions.DenyChildAttach;
        if (HideScheduler || execution == DivConExecution.ForkJoin)
        {
            creationOptions |= TaskCreationOptions.HideScheduler;
        }

        var run = new Run(this, scheduler, creationOptions, cancellationToken, Profiler, exclusive);
        return execution == DivConExecution.ForkJoin ? StartForkJoin(problem, run) : StartAsynchronous(problem, run);
    }

    /// <summary>Whether <paramref name="problem"/>, at <see cref="DivConContext.Level"/> (1 = top), is to be split rather than solved directly.</summary>
    protected abstract bool ShouldSplit(TParam problem, DivConContext context);

    /// <summary>
    /// Divides <paramref name="problem"/> into subproblems: at least one, each smaller than the problem (see the class
    /// remarks for what faults the run).
    /// </summary>
    protected abstract TParam[] Split(TParam problem, DivConContext context);

    /// <summary>Solves <paramref name="problem"/> sequentially (the base case of the recursion).</summary>
    protected abstract TResult ExecuteMuscle(TParam problem, DivConContext context);

    /// <summary>Combines the subresults of one split, in the order of the subproblems <see cref="Split"/> returned.</summary>
    protected abstract TResult Merge(TResult[] subResults, DivConContext context);

    /// <summary>The split the skeleton calls; by default <see cref="Split"/>. Override it for an asynchronous split.</summary>
    protected virtual ValueTask<TParam[]> SplitAsync(TParam problem, DivConContext context) => new(Split(problem, context));

    /// <summary>The execute muscle the skeleton calls; by default <see cref="ExecuteMuscle"/>. Override it for an asynchronous one.</summary>
    protected virtual ValueTask<TResult> ExecuteMuscleAsync(TParam problem, DivConContext context) => new(ExecuteMuscle(problem, context));

    /// <summary>The merge the skeleton calls; by default <see cref="Merge"/>. Override it for an asynchronous merge.</summary>
    protected virtual ValueTask<TResult> MergeAsync(TResult[] subResults, DivConContext context) => new(Merge(subResults, context));

    /// <summary>
    /// The size of <paramref name="problem"/>, when the program knows it: then a split whose subproblem is not smaller
    /// than its problem faults the run. Returns false (no size) by default.
    /// </summary>
    protected virtual bool TryGetProblemSize(TParam problem, out long size)
    {
        size = 0;
        return false;
    }

    // Shared by both execution modes: the check that Split kept its contract (class remarks, "Bad splits").
    private TParam[] CheckSplit(TParam problem, TParam[]? subProblems, int level)
    {
        if (subProblems is null || subProblems.Length == 0)
        {
            throw new InvalidOperationException(
                $"Split returned {(subProblems is null ? "null" : "no subproblems")} at level {level}: it must return at least one subproblem. " +
                "Return false from ShouldSplit for problems that cannot be divided.");
        }

        bool sized = TryGetProblemSize(problem, out long size);
        EqualityComparer<TParam> comparer = EqualityComparer<TParam>.Default;
        for (int i = 0; i < subProblems.Length; i++)
        {
            if (comparer.Equals(subProblems[i], problem))
            {
                throw new InvalidOperationException(
                    $"Split at level {level} returned the problem itself as subproblem {i}: the recursion would never end. " +
                    "Every subproblem must be smaller than its problem; return false from ShouldSplit for problems that cannot be divided.");
            }

            if (sized && TryGetProblemSize(subProblems[i], out long subSize) && subSize >= size)
            {
                throw new InvalidOperationException(
                    $"Split at level {level} returned subproblem {i} of size {subSize}, not smaller than its problem's {size}: the recursion might never end. " +
                    "Every subproblem must be smaller than its problem; return false from ShouldSplit for problems that cannot be divided.");
            }
        }

        return subProblems;
    }

    // Called once per exclusive run, by Run.Complete, before the run's task completes.
    private void ReleaseExclusiveRun() => Volatile.Write(ref _exclusiveRunActive, 0);
}
