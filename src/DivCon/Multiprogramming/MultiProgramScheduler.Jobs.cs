namespace DivCon.Multiprogramming;

// Programs that come and go with one job each (an open workload: a request handler submits a job, the job is a
// program while it runs) and removal that does not block the caller.
//
// RunProgramAsync, in order: (1) AddProgram (synchronously, so a disposed scheduler or a bad argument throws at the
// call); (2) the job runs as the program (ProgramHandle.Run) with a token linked to the caller's and the program's;
// (3) when the job's task completes, whatever its outcome, the program is removed: WaitForTasks after a job that
// succeeded (anything it left queued still runs, nothing is dropped), CancelTasks after one that faulted or was
// canceled (work it left running that observes the token stops); (4) the returned task then takes the job's outcome.
// The removal waits on a thread-pool thread (RemoveProgramAsync), never on the worker that completed the job (which
// RemoveProgram rejects: the removal may need that very worker).
//
// RemoveProgramAsync checks its arguments at the call and then runs RemoveProgram on the .NET thread pool: the caller
// (a worker of this pool, or one of the program's own tasks, included) is not blocked. The wait is RemoveProgram's
// poll of the program's queues; it occupies one thread-pool thread while the program's outstanding tasks finish.
// Rejected: an awaitable removal signalled by the program's last task (it would need a completion hook in the queue
// set's hot path, for a wait that is short once the program's job has ended).

// Programs that run one job and leave; removal without blocking.
public sealed partial class MultiProgramScheduler
{
    /// <summary>
    /// Adds a program named <paramref name="name"/>, runs <paramref name="job"/> as that program (on its workers, with
    /// its scheduler as <see cref="TaskScheduler.Current"/>: see <see cref="ProgramHandle.Run(Func{Task}, CancellationToken)"/>),
    /// and removes the program when the job's task completes. The returned task completes after the removal, with the
    /// job's outcome (result, exception or cancellation).
    /// </summary>
    /// <param name="name">A name for reports and metrics; not empty.</param>
    /// <param name="job">
    /// The job. Its token is canceled when <paramref name="cancellationToken"/> is, or when the program is removed with
    /// <see cref="ProgramRemoval.CancelTasks"/> (e.g. by the scheduler's <see cref="Dispose"/>).
    /// </param>
    /// <param name="scalability">Its speedup alone on the whole machine; positive and finite; null (the default): estimated online, as in <see cref="AddProgram"/>.</param>
    /// <param name="cancellationToken">Cancels the job: given to it, and a job not started yet ends canceled.</param>
    /// <exception cref="ObjectDisposedException">The scheduler has been disposed.</exception>
    /// <remarks>
    /// After a job that completed successfully, work it left queued on the program still runs before the program is
    /// removed; after a job that faulted or was canceled, the program is removed with
    /// <see cref="ProgramRemoval.CancelTasks"/>, so its left-over work that observes the token stops.
    /// </remarks>
    public Task<TResult> RunProgramAsync<TResult>(string name, Func<CancellationToken, Task<TResult>> job, double? scalability = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(job);
        ProgramHandle program = AddProgram(name, scalability);
        return RunThenRemoveAsync(program, job, cancellationToken);
    }

    /// <summary>
    /// As <see cref="RunProgramAsync{TResult}(string, Func{CancellationToken, Task{TResult}}, double?, CancellationToken)"/>,
    /// for a job without a result.
    /// </summary>
    /// <exception cref="ObjectDisposedException">The scheduler has been disposed.</exception>
    public Task RunProgramAsync(string name, Func<CancellationToken, Task> job, double? scalability = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(job);
        ProgramHandle program = AddProgram(name, scalability);
        return RunThenRemoveAsync(program, async token =>
        {
            await job(token).ConfigureAwait(false);
            return true;
        }, cancellationToken);
    }

    /// <summary>
    /// Removes a program as <see cref="RemoveProgram"/> does, without blocking the caller: the returned task completes
    /// when the program's outstanding tasks have run and its workers have gone to the other programs. Unlike
    /// <see cref="RemoveProgram"/> it may be called from a task running on this scheduler's workers.
    /// </summary>
    /// <exception cref="ArgumentException">The program belongs to another scheduler.</exception>
    /// <exception cref="InvalidOperationException">The program was already removed (or is being removed).</exception>
    public Task RemoveProgramAsync(ProgramHandle program, ProgramRemoval mode = ProgramRemoval.WaitForTasks)
    {
        CheckRemoval(program, mode);

        if (program.IsRemoving || program.IsRemoved)
        {
            throw new InvalidOperationException($"Program {program} has already been removed (or is being removed).");
        }

        // On the thread pool (TaskScheduler.Default), never on this pool's workers: RemoveProgram's own check holds.
        return Task.Factory.StartNew(() => RemoveProgram(program, mode), CancellationToken.None, TaskCreationOptions.DenyChildAttach, TaskScheduler.Default);
    }

    private async Task<TResult> RunThenRemoveAsync<TResult>(ProgramHandle program, Func<CancellationToken, Task<TResult>> job, CancellationToken cancellationToken)
    {
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, program.CancellationToken);
        Task<TResult> run;
        try
        {
            CancellationToken token = linked.Token;
            run = program.Run(() => job(token), token);
        }
        catch (ObjectDisposedException)
        {
            // The scheduler's Dispose removed the program between AddProgram and Run: nothing ran.
            throw new ObjectDisposedException(nameof(MultiProgramScheduler), $"The scheduler was disposed before program {program}'s job started.");
        }

        await ((Task)run).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        if (!program.IsRemoving && !program.IsRemoved)
        {
            ProgramRemoval mode = run.IsCompletedSuccessfully ? ProgramRemoval.WaitForTasks : ProgramRemoval.CancelTasks;
            try
            {
                await RemoveProgramAsync(program, mode).ConfigureAwait(false);
            }
            catch (InvalidOperationException) when (program.IsRemoving || program.IsRemoved)
            {
                // Removed meanwhile by the scheduler's Dispose (or a caller holding the handle): it is gone either way.
            }
        }

        return await run.ConfigureAwait(false);
    }
}
