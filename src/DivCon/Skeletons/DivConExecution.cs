namespace DivCon.Skeletons;

/// <summary>How <see cref="DivConBase{TParam, TResult}.RunAsync(TParam, CancellationToken)"/> turns the recursion into tasks (§4.2).</summary>
public enum DivConExecution
{
    /// <summary>
    /// Asynchronous recursion (§4.2.2), the default: a parent never blocks on its children; the last child to finish
    /// schedules the parent's merge as a new task. Runs on schedulers of any size, including one worker, and at any
    /// recursion depth.
    /// </summary>
    Asynchronous,

    /// <summary>
    /// Blocking fork-join (§4.2.1, Figure 4.5), kept for comparison: a parent solves its first subproblem itself,
    /// then every subproblem no worker has started, and blocks its worker only on subproblems running on other
    /// workers. It completes on any scheduler, including one worker and schedulers that never inline, with or without
    /// a cancellation token; what it costs is the time workers spend blocked. Every level a thread waits at holds
    /// stack frames: when the stack is nearly full the run faults with <see cref="InsufficientExecutionStackException"/>
    /// (level 13,225 of a one-child chain with trivial muscles, on the default thread stack of a Linux x64 machine).
    /// Muscles always run with the scheduler hidden (<see cref="DivConBase{TParam, TResult}.HideScheduler"/>),
    /// because a blocked worker cannot run continuations queued to it. An asynchronous muscle that does not complete synchronously is waited for by blocking while its
    /// continuations run on the thread pool: on <see cref="TaskScheduler.Default"/>, whose threads are the pool's, that
    /// is sync-over-async and slows down when the pool runs short of threads. <see cref="DivConContext.ForAsync"/> needs
    /// no pool thread (its caller takes part and its last participant runs the rest of the muscle).
    /// </summary>
    ForkJoin,
}
