namespace DivCon.Multiprogramming;

// Running ordinary .NET code as the program (in the manner of oneTBB's task_arena::execute): the delegate becomes a
// task queued to the program's scheduler, so it runs on a worker serving the program with TaskScheduler.Current set
// to the program's scheduler. What follows from that, and is why no TaskFactory plumbing is needed:
//   - an await inside an async delegate captures TaskScheduler.Current (the workers have no SynchronizationContext),
//     so its continuation is queued back to the program, unless the code says ConfigureAwait(false);
//   - Task.Factory.StartNew and new Task(...).Start() without a scheduler use TaskScheduler.Current, i.e. the program's;
//   - Parallel.For / ForEach / Invoke and Parallel.ForEachAsync need ParallelOptions.TaskScheduler = the program's
//     scheduler: without it they run on TaskScheduler.Default even here (.NET 10; tested in HostedPatternTests), and
//     Task.Run always uses TaskScheduler.Default: work started either way leaves the program.
// DenyChildAttach: the delegate's task completes when the delegate does, whatever it starts with AttachedToParent
// (Task.Run's own behaviour), so awaiting the returned task means awaiting the delegate and nothing hidden.
// Removal and disposal: Dispose / DisposeAsync remove the program as RemoveProgram / RemoveProgramAsync do.
// Dispose on one of the pool's workers (or inside one of the program's own tasks) cannot wait there (the removal
// waits for the program's tasks, the calling one included), so it starts the removal and returns, as
// MultiProgramScheduler.Dispose does on a worker.

// Running delegates as the program, and removing it with <c>using</c>.
public sealed partial class ProgramHandle : IDisposable, IAsyncDisposable
{
    /// <summary>
    /// Runs <paramref name="action"/> as the program: on a worker serving it, with the program's scheduler as
    /// <see cref="TaskScheduler.Current"/>, so <c>Task.Factory.StartNew</c> inside it stays on the program.
    /// <c>Parallel.For</c>, <c>Parallel.ForEach</c>, <c>Parallel.Invoke</c> and <c>Parallel.ForEachAsync</c> stay only
    /// with <c>new ParallelOptions { TaskScheduler = program.Scheduler }</c> (without it they use the .NET thread
    /// pool), and <c>Task.Run</c> always leaves for the thread pool.
    /// </summary>
    /// <returns>A task that completes when <paramref name="action"/> returns: faulted with its exception, canceled if <paramref name="cancellationToken"/> is canceled before it starts.</returns>
    /// <exception cref="ObjectDisposedException">The program has been removed (or its removal has begun).</exception>
    public Task Run(Action action, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(action);
        ThrowIfRemoving();
        return Task.Factory.StartNew(action, cancellationToken, TaskCreationOptions.DenyChildAttach, _scheduler);
    }

    /// <summary>Runs <paramref name="function"/> as the program (see <see cref="Run(Action, CancellationToken)"/>) and returns its result.</summary>
    /// <exception cref="ObjectDisposedException">The program has been removed (or its removal has begun).</exception>
    public Task<TResult> Run<TResult>(Func<TResult> function, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(function);
        ThrowIfRemoving();
        return Task.Factory.StartNew(function, cancellationToken, TaskCreationOptions.DenyChildAttach, _scheduler);
    }

    /// <summary>
    /// Runs the asynchronous <paramref name="function"/> as the program: it starts on a worker serving the program, and
    /// every continuation of its <c>await</c>s (without <c>ConfigureAwait(false)</c>) is queued back to the program's
    /// scheduler, so all of its synchronous parts run on the program's cores.
    /// </summary>
    /// <returns>A task that completes when the task <paramref name="function"/> returned completes, with its outcome.</returns>
    /// <exception cref="ObjectDisposedException">The program has been removed (or its removal has begun).</exception>
    public Task Run(Func<Task> function, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(function);
        ThrowIfRemoving();
        return Task.Factory.StartNew(function, cancellationToken, TaskCreationOptions.DenyChildAttach, _scheduler).Unwrap();
    }

    /// <summary>Runs the asynchronous <paramref name="function"/> as the program (see <see cref="Run(Func{Task}, CancellationToken)"/>) and returns its result.</summary>
    /// <exception cref="ObjectDisposedException">The program has been removed (or its removal has begun).</exception>
    public Task<TResult> Run<TResult>(Func<Task<TResult>> function, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(function);
        ThrowIfRemoving();
        return Task.Factory.StartNew(function, cancellationToken, TaskCreationOptions.DenyChildAttach, _scheduler).Unwrap();
    }

    /// <summary>
    /// Removes the program as <see cref="MultiProgramScheduler.RemoveProgram"/> does (its outstanding tasks run), and
    /// waits for that; nothing if it is already removed or being removed. On one of the scheduler's workers, or in
    /// one of the program's own tasks, it starts the removal and returns without waiting.
    /// </summary>
    public void Dispose()
    {
        if (IsRemoving || IsRemoved)
        {
            return;
        }

        if (Owner.Pool.IsCurrentThreadAWorker || ReferenceEquals(TaskScheduler.Current, _scheduler))
        {
            _ = Owner.RemoveProgramAsync(this);
            return;
        }

        try
        {
            Owner.RemoveProgram(this);
        }
        catch (InvalidOperationException) when (IsRemoving || IsRemoved)
        {
            // Removed meanwhile by another caller (or by the scheduler's Dispose): the state Dispose asks for.
        }
    }

    /// <summary>
    /// Removes the program as <see cref="MultiProgramScheduler.RemoveProgramAsync"/> does; completes at once if it is
    /// already removed or being removed.
    /// </summary>
    public async ValueTask DisposeAsync()
    {
        if (IsRemoving || IsRemoved)
        {
            return;
        }

        try
        {
            await Owner.RemoveProgramAsync(this).ConfigureAwait(false);
        }
        catch (InvalidOperationException) when (IsRemoving || IsRemoved)
        {
            // Removed meanwhile by another caller (or by the scheduler's Dispose): the state DisposeAsync asks for.
        }
    }

    private void ThrowIfRemoving()
    {
        // A Run racing a removal that begins after this check queues from outside to a closed set: that task still
        // runs (late, on the thread pool, counted in LateTasks), so the race loses nothing.
        if (IsRemoving || IsRemoved)
        {
            throw new ObjectDisposedException(ToString(), $"Program {this} has been removed: it runs no new work.");
        }
    }
}
