namespace DivCon.Skeletons;

/// <summary>
/// A D&amp;C program that can be run repeatedly on its own data (§4.3, §4.5.1): <see cref="Initialize"/> makes the
/// input once (for example a seeded random array); every <see cref="RunAsync(CancellationToken)"/> reuses it, so
/// repeated runs measure the computation, not data generation.
/// </summary>
/// <typeparam name="TParam">The type of a problem or subproblem.</typeparam>
/// <typeparam name="TResult">The type of a result or subresult.</typeparam>
public abstract class TestableDivCon<TParam, TResult> : DivConBase<TParam, TResult>
{
    /// <summary>Creates the program; its tasks go to <paramref name="scheduler"/>, or, when null, to the scheduler current when a run starts.</summary>
    protected TestableDivCon(TaskScheduler? scheduler = null)
        : base(scheduler)
    {
    }

    /// <summary>How many subproblems a split makes (the branching factor b; level i has up to b^(i−1) tasks).</summary>
    public abstract int BranchingFactor { get; }

    private readonly Lock _initializeLock = new();

    // Written once, under _initializeLock, after InitializeCore returned; read without the lock (Volatile: pairs with
    // the write, so a reader that sees true also sees the input InitializeCore made).
    private volatile bool _initialized;

    /// <summary>Whether <see cref="Initialize"/> has made the input.</summary>
    public bool IsInitialized => _initialized;

    /// <summary>
    /// Makes the input on the first call; later calls do nothing (the data is reused across runs, §4.5.1). Thread-safe:
    /// concurrent first calls make the input once.
    /// </summary>
    public void Initialize()
    {
        if (_initialized)
        {
            return;
        }

        lock (_initializeLock)
        {
            if (!_initialized)
            {
                InitializeCore();
                _initialized = true;
            }
        }
    }

    /// <summary>
    /// Runs the program's top-level problem on <see cref="DivConBase{TParam, TResult}.Scheduler"/> (or the current
    /// scheduler when it is null), calling <see cref="Initialize"/> first if it has not run (on the calling thread:
    /// call it beforehand to keep data generation out of a measurement).
    /// </summary>
    /// <exception cref="InvalidOperationException">A run is in progress and the program does not support concurrent runs.</exception>
    public Task<TResult> RunAsync(CancellationToken cancellationToken = default) => RunAsync(Scheduler ?? TaskScheduler.Current, cancellationToken);

    /// <summary>Runs the program's top-level problem on <paramref name="scheduler"/>; see <see cref="RunAsync(CancellationToken)"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="scheduler"/> is null.</exception>
    /// <exception cref="InvalidOperationException">A run is in progress and the program does not support concurrent runs.</exception>
    public Task<TResult> RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        Initialize();
        return RunAsync(CreateRootProblem(), scheduler, cancellationToken);
    }

    /// <summary>Makes the program's input; called once, by <see cref="Initialize"/>.</summary>
    protected abstract void InitializeCore();

    /// <summary>The top-level problem over the initialized input (called after <see cref="Initialize"/>).</summary>
    protected abstract TParam CreateRootProblem();
}
