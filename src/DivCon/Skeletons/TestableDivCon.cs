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
    /// <summary>Creates the program; its tasks go to <paramref name="scheduler"/>, or to <see cref="TaskScheduler.Default"/> when null.</summary>
    protected TestableDivCon(TaskScheduler? scheduler = null)
        : base(scheduler)
    {
    }

    /// <summary>How many subproblems a split makes (the branching factor b; level i has up to b^(i−1) tasks).</summary>
    public abstract int BranchingFactor { get; }

    /// <summary>Whether <see cref="Initialize"/> has made the input.</summary>
    public bool IsInitialized { get; private set; }

    /// <summary>
    /// Makes the input on the first call; later calls do nothing (the data is reused across runs, §4.5.1). Not
    /// thread-safe: call it before starting concurrent runs of the same instance.
    /// </summary>
    public void Initialize()
    {
        if (!IsInitialized)
        {
            InitializeCore();
            IsInitialized = true;
        }
    }

    /// <summary>
    /// Runs the program's top-level problem on <see cref="DivConBase{TParam, TResult}.Scheduler"/>, calling
    /// <see cref="Initialize"/> first if it has not run (on the calling thread: call it beforehand to keep data
    /// generation out of a measurement).
    /// </summary>
    public Task<TResult> RunAsync(CancellationToken cancellationToken = default) => RunAsync(Scheduler, cancellationToken);

    /// <summary>Runs the program's top-level problem on <paramref name="scheduler"/>; see <see cref="RunAsync(CancellationToken)"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="scheduler"/> is null.</exception>
    public Task<TResult> RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        Initialize();
        return Input(CreateRootProblem(), scheduler, cancellationToken);
    }

    /// <summary>Makes the program's input; called once, by <see cref="Initialize"/>.</summary>
    protected abstract void InitializeCore();

    /// <summary>The top-level problem over the initialized input (called after <see cref="Initialize"/>).</summary>
    protected abstract TParam CreateRootProblem();
}
