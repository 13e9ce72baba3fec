namespace DivCon.Skeletons;

/// <summary>
/// What a muscle call of a <see cref="DivConBase{TParam, TResult}"/> run knows about itself: its recursion
/// <see cref="Level"/>, the run's <see cref="CancellationToken"/> and <see cref="Scheduler"/>, and
/// <see cref="ForAsync"/> for parallelism inside the muscle (nested parallelism, thesis §8.2).
/// </summary>
/// <remarks>
/// The skeleton passes a new context to every muscle call. To test a muscle on its own, construct one with
/// <see cref="DivConContext(int, CancellationToken, TaskScheduler?)"/>.
/// </remarks>
public readonly struct DivConContext
{
    private readonly TaskScheduler? _scheduler;

    /// <summary>A context for calling a muscle outside a run (for example in a unit test of the muscle).</summary>
    /// <param name="level">The recursion level, at least 1 (1 = the top-level problem).</param>
    /// <param name="cancellationToken">The token the muscle observes.</param>
    /// <param name="scheduler">Where <see cref="ForAsync"/> queues its tasks; null: <see cref="TaskScheduler.Default"/>.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="level"/> is less than 1.</exception>
    public DivConContext(int level, CancellationToken cancellationToken = default, TaskScheduler? scheduler = null)
        : this(level, cancellationToken, scheduler ?? TaskScheduler.Default, TaskCreationOptions.DenyChildAttach)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(level);
    }

    internal DivConContext(int level, CancellationToken cancellationToken, TaskScheduler scheduler, TaskCreationOptions creationOptions)
    {
        Level = level;
        CancellationToken = cancellationToken;
        _scheduler = scheduler;
        CreationOptions = creationOptions;
    }

    /// <summary>The recursion level of this call: 1 for the top-level problem, L + 1 for the subproblems of a split at L.</summary>
    public int Level { get; }

    /// <summary>
    /// Canceled when the run stops: the caller's token was canceled, or a muscle of the run faulted. A muscle may pass
    /// it on (to I/O, to a nested run); an <see cref="OperationCanceledException"/> for this token is not a fault.
    /// </summary>
    public CancellationToken CancellationToken { get; }

    /// <summary>
    /// The scheduler of the run, even when <see cref="DivConBase{TParam, TResult}.HideScheduler"/> hides it from
    /// <see cref="TaskScheduler.Current"/>: start nested parallel work here to keep it inside the program's share.
    /// </summary>
    public TaskScheduler Scheduler => _scheduler ?? TaskScheduler.Default;

    // The options of the run's own tasks (DenyChildAttach, HideScheduler when the run hides its scheduler).
    internal TaskCreationOptions CreationOptions { get; }

    /// <summary>
    /// Runs <paramref name="body"/>(i) once for every i in [<paramref name="fromInclusive"/>, <paramref name="toExclusive"/>),
    /// in parallel on <see cref="Scheduler"/>, with the calling thread taking part: for example the submatrix additions
    /// of a Strassen split, by row blocks.
    /// </summary>
    /// <remarks>
    /// <para>
    /// The caller runs iterations itself until none is left to claim; helper tasks (at most one per other worker of
    /// the scheduler) claim the others. The returned task completes when every claimed iteration has finished. It
    /// never waits for a helper that has not started: a helper that starts late finds nothing left and returns. So
    /// <c>ForAsync</c> completes on a scheduler with one worker, and when the caller's worker is blocked (fork-join
    /// mode) it waits only for iterations that are running on other threads. Awaiting it in an asynchronous muscle
    /// releases the worker while helpers finish.
    /// </para>
    /// <para>
    /// Faults and cancellation: after a body throws, no iteration starts; the task faults with every body exception.
    /// When <see cref="CancellationToken"/> is canceled, no iteration starts and the task ends canceled. Unlike
    /// <see cref="Parallel.ForAsync{T}(T, T, ParallelOptions, Func{T, System.Threading.CancellationToken, ValueTask})"/>
    /// (whose helpers alone run the body, so a caller that blocks on it can starve a bounded scheduler), the caller
    /// takes part.
    /// </para>
    /// </remarks>
    /// <returns>A task that completes when every iteration has run (synchronously completed when the caller ran the last).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="body"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="toExclusive"/> is less than <paramref name="fromInclusive"/>.</exception>
    public ValueTask ForAsync(int fromInclusive, int toExclusive, Action<int> body)
    {
        ArgumentNullException.ThrowIfNull(body);
        ArgumentOutOfRangeException.ThrowIfLessThan(toExclusive, fromInclusive);
        if (CancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled(CancellationToken);
        }

        if (toExclusive - fromInclusive <= 1)
        {
            // Nothing to share: run the one iteration (if any) here.
            if (toExclusive > fromInclusive)
            {
                try
                {
                    body(fromInclusive);
                }
                catch (Exception e)
                {
                    return ValueTask.FromException(e);
                }
            }

            return ValueTask.CompletedTask;
        }

        return new NestedFor(fromInclusive, toExclusive, body, CancellationToken).Run(Scheduler, CreationOptions);
    }
}
