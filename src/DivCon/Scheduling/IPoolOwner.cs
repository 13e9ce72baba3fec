namespace DivCon.Scheduling;

/// <summary>
/// The owner of a <see cref="WorkerPool"/> whose workers serve several queue sets (the MultiProgramScheduler): what
/// the pool asks it, on the workers' own threads, instead of deciding itself. The standalone scheduler's pool has no
/// owner. Implementations must not block or allocate: they run between two tasks.
/// </summary>
internal interface IPoolOwner
{
    /// <summary>
    /// Lender: where a worker with nothing to do in <paramref name="serving"/> should go (its home, a borrower), or
    /// nowhere. Called before it parks and in its park re-check: must not change anything. The worker has read its
    /// assignment token before the call, and its move CASes that token (WorkerPool.TryFindIdleWork): so the decision
    /// must rest on what the owner reads here, after that read.
    /// </summary>
    IdleMove FindIdleWork(Worker worker, WorkQueueSet serving);

    /// <summary>
    /// Lender, at a task boundary of a worker that lent itself: its home when the allocation in force still gives its
    /// slot to another set than <paramref name="serving"/> and that set wants its workers back (recall); else null,
    /// with <paramref name="away"/> false when the worker is no longer away from its home.
    /// </summary>
    WorkQueueSet? FindRecall(Worker worker, WorkQueueSet serving, out bool away);

    /// <summary>After a worker's own CAS moved it from <paramref name="from"/> to <paramref name="to"/> (a loan, a return or a recall).</summary>
    void OnSelfMove(Worker worker, WorkQueueSet from, WorkQueueSet to, SelfMove kind);

    /// <summary>
    /// A worker switched sets (<paramref name="from"/> to <paramref name="to"/>) at least a pending-move threshold after
    /// its assignment changed at <paramref name="assignedAt"/>: the move waited on a running task. On the worker's thread;
    /// rare (only such waits are reported).
    /// </summary>
    void OnPendingMoveEnded(Worker worker, WorkQueueSet? from, WorkQueueSet? to, long assignedAt, long now);

    /// <summary>A worker left <paramref name="set"/> while it had queued tasks (it may now have no worker at all).</summary>
    void OnLeftWithWork(WorkQueueSet set);

    /// <summary>A task was queued on some set while the owner's periodic thread was dormant (<see cref="WorkerPool.SetOwnerDormant"/>).</summary>
    void OnWorkAfterDormant();

    /// <summary>A set's demand changed: it wants workers (a task was queued while none of its workers was parked) or ran dry.</summary>
    void OnDemandChanged(WorkQueueSet set, bool wantsWorkers);

    /// <summary>
    /// Blocking monitor: whether the allocation in force gives <paramref name="worker"/>'s slot to
    /// <paramref name="set"/> (its home), wherever the worker is now (lent, or a move there still pending). Reads only;
    /// any thread.
    /// </summary>
    bool IsHomeOf(Worker worker, WorkQueueSet set);

    /// <summary>Blocking monitor: a compensating worker started for <paramref name="set"/>, standing in for <paramref name="stuck"/>.</summary>
    void OnCompensationStarted(WorkQueueSet set, Worker stuck, Worker compensating);

    /// <summary>A compensating worker of <paramref name="set"/> exited.</summary>
    void OnCompensationEnded(WorkQueueSet set, Worker compensating);
}

/// <summary>An idle worker's destination (<see cref="IPoolOwner.FindIdleWork"/>): none, or a set and whether going there is a loan.</summary>
/// <param name="Target">The set to serve next, or null to stay.</param>
/// <param name="Kind">A loan (to a borrower) or a return (to its home).</param>
internal readonly record struct IdleMove(WorkQueueSet? Target, SelfMove Kind);

/// <summary>Why a worker moved itself.</summary>
internal enum SelfMove
{
    /// <summary>Lent to a borrower (its home had no task).</summary>
    Loan,

    /// <summary>Back home: the borrower had no task it could find.</summary>
    Return,

    /// <summary>Back home at a task boundary: its home wanted workers (a queued task).</summary>
    Recall,
}
