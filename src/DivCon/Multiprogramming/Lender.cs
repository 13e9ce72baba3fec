// The lender: idle lending, the one bounded exception to "the mover decides". The pool's typed owner (IPoolOwner): the
// workers call it on their own threads, between tasks, without a lock, and it reads only the snapshot the mover
// published (one volatile read) and per-program counters.
//
// Roles
//   lender - a worker with nothing to do in the set it serves (after spinning; again in its park re-check), or a lent
//            worker at a task boundary. It decides, without a lock or an allocation:
//            (a) away from its home (the set the snapshot gives its slot): it goes home (a return). This ends a loan when
//                the borrower has no task the worker can find; at home it may ask again (b).
//            (b) at home, with lending in force (the policy implements IIdleLendingPolicy, or the IdleLending option is
//                on): the borrower rule (IdleLending.Choose: the policy's rule, else IdleLending.ChooseBorrower) gets the
//                decision's loads, each program's serving workers (ProgramHandle's counter: owned + lent in - lent out)
//                and its AvailableTasks; the worker lends itself to the program chosen (a loan).
//            (c) lent, at each task boundary: its home wants workers (WorkQueueSet.WantsWorkers: a task was queued there
//                while none of its workers was parked): it goes home (a recall). A running task is never interrupted, so
//                a recall waits at most for the task in hand; it does not wait for the next decision.
//            The worker then CASes its own assignment from the set it serves (Worker.TryReplaceAssignment, expecting the
//            assignment token it read before this file read the snapshot): the move happens at that task boundary like
//            any other, and is recorded with reason IdleLending, LoanReturn or Recall.
//   producer - lending's wake-ups (WorkQueueSet.RequestWorkers): a producer whose set has no parked worker marks the set
//            as wanting workers and wakes a worker parked on another set, which lends itself at once (no interval).
//
// Ordering (required: a move by the mover always wins over a self-move): Mover.cs. A self-move decided on an older
// snapshot either comes before the mover's CAS, which then replaces it, or fails: the worker reads its assignment token
// (WorkerAssignment) before the snapshot (WorkerPool.TryFindIdleWork, TryRecall), every decision writes a new token for
// every worker after publishing, and the worker's CAS expects the token it read.
// Exact serving counts: every assignment change is a successful CAS, counted by the thread that made it.
//
// Costs (docs/simulation.md, "work conservation"): a loan or a recall is one move (a deque drained, a cold cache); a
// recall check costs a lent worker one flag read per task boundary, and nothing while it is at home; lending's
// wake-ups cost a producer one flag read per push while no worker of its set is parked.
using System.Diagnostics;
using DivCon.Partitioning;
using DivCon.Scheduling;

namespace DivCon.Multiprogramming;

/// <summary>Idle lending and recall, as the pool's owner (see the file header).</summary>
internal sealed class Lender : IPoolOwner
{
    private readonly MultiProgramScheduler _scheduler;
    private readonly Mover _mover;
    private readonly int _cores;

    public Lender(MultiProgramScheduler scheduler, Mover mover, int cores)
    {
        _scheduler = scheduler;
        _mover = mover;
        _cores = cores;
    }

    /// <summary>
    /// (a) and (b) of the header. Runs on workers between tasks, several at once: no allocation (counts on the stack,
    /// or in the slot's own buffer) and no lock; O(programs) reads of the serving counts plus each program's
    /// AvailableTasks (a sum over slots). The counts are racy: several idle workers may pick the same borrower, or a
    /// borrower whose tasks were just taken; a wrong pick costs one idle pass there and a return.
    /// </summary>
    public IdleMove FindIdleWork(Worker worker, WorkQueueSet serving)
    {
        // Volatile read: pairs with the mover's publication, which comes before its moves. Required: after the caller's
        // read of the worker's assignment token (WorkerPool.TryFindIdleWork), which its CAS expects.
        ScheduleHook.Yield("lend.read-snapshot");
        AllocationSnapshot snapshot = _mover.Snapshot;
        int slot = worker.Slot;
        WorkQueueSet? home = snapshot.Homes[slot];
        if (!ReferenceEquals(serving, home))
        {
            // A return decided on this snapshot. If it is stale by the time of the worker's CAS (decisions published
            // since moved the worker, even away and back to `serving`), the CAS fails: it expects the assignment token
            // the worker read before this snapshot, and every decision writes a new one after publishing (see the
            // header; the ABA a CAS on the set allowed: SelfMoveExplorationTests, Focused seed 15 before the token).
            return new IdleMove(home, SelfMove.Return); // null: no program left, stay
        }

        ProgramHandle[] programs = snapshot.Programs;
        int m = programs.Length;
        if (!snapshot.Lending || m < 2)
        {
            return default;
        }

        int[]? wide = snapshot.WideBuffers?[slot];
        Span<int> servingWorkers = m <= Mover.StackallocPrograms ? stackalloc int[m] : wide.AsSpan(0, m);
        Span<int> availableTasks = m <= Mover.StackallocPrograms ? stackalloc int[m] : wide.AsSpan(m, m);
        for (int i = 0; i < m; i++)
        {
            servingWorkers[i] = programs[i].ServingWorkers;
            availableTasks[i] = programs[i].AvailableTasks;
        }

        var input = new LendingInput(_cores, snapshot.Loads, servingWorkers, availableTasks, snapshot.Owners[slot]);
        int borrower = IdleLending.Choose(snapshot.LendingRule, input, out string? rejection);
        if (rejection is not null)
        {
            _scheduler.RejectBorrower(rejection);
            return default;
        }

        if (borrower < 0)
        {
            return default;
        }

        ProgramHandle chosen = programs[borrower];
        return chosen.IsRemoved ? default : new IdleMove(chosen.Queues, SelfMove.Loan);
    }

    /// <summary>(c) of the header: home, if the worker is away from it and it wants workers; <paramref name="away"/> false once it is home.</summary>
    public WorkQueueSet? FindRecall(Worker worker, WorkQueueSet serving, out bool away)
    {
        // Volatile read, after the caller's read of the assignment token (as FindIdleWork).
        ScheduleHook.Yield("recall.read-snapshot");
        AllocationSnapshot snapshot = _mover.Snapshot;
        WorkQueueSet? home = snapshot.Homes[worker.Slot];
        away = home is not null && !ReferenceEquals(home, serving);
        return away && home!.WantsWorkers ? home : null;
    }

    /// <summary>On the worker's thread, after its CAS moved it (a loan, a return or a recall): counts and records the move.</summary>
    public void OnSelfMove(Worker worker, WorkQueueSet from, WorkQueueSet to, SelfMove kind)
    {
        from.Owner?.WorkerLeft();
        to.Owner?.WorkerArrived();

        // Going to the slot's home is a return or a recall, anything else a loan; except, while the mover is still moving
        // workers, a move from the slot's previous home to its new one: that is the allocation's own move, made by the
        // worker just before the mover (which publishes first), recorded with the allocation's reason and trigger, once
        // (the mover then finds the worker there). Racy against a decision that publishes or finishes meanwhile: only
        // the label can be off.
        AllocationSnapshot snapshot = _mover.Snapshot;
        int slot = worker.Slot;
        AllocationReason reason = AllocationReason.IdleLending;
        RepartitionTrigger trigger = RepartitionTrigger.IdleLending;
        if (ReferenceEquals(to, snapshot.Homes[slot]))
        {
            bool allocationMove = !snapshot.MovesDone && ReferenceEquals(from, snapshot.PreviousHomes[slot]);
            reason = allocationMove ? snapshot.Reasons[slot] : kind == SelfMove.Recall ? AllocationReason.Recall : AllocationReason.LoanReturn;
            trigger = allocationMove ? snapshot.Trigger : RepartitionTrigger.IdleLending;
        }

        _scheduler.RecordMove(new AllocationMove(Stopwatch.GetTimestamp(), slot, _scheduler.ProcessorOf(slot), from.Owner?.Id, to.Owner?.Id, reason, trigger));
    }

    /// <summary>A program got work with none of its workers parked, or ran dry: a demand-driven decision when enabled, or when it has no worker at all.</summary>
    public void OnDemandChanged(WorkQueueSet set, bool wantsWorkers) => _scheduler.OnDemandChanged(set.Owner as ProgramHandle, wantsWorkers);

    public void OnPendingMoveEnded(Worker worker, WorkQueueSet? from, WorkQueueSet? to, long assignedAt, long now)
        => _scheduler.Timeline.RecordPendingMove(new PendingMoveEnded(
            now, assignedAt, worker.Slot, from?.Owner?.Id, to?.Owner?.Id, Stopwatch.GetElapsedTime(assignedAt, now)));

    public void OnLeftWithWork(WorkQueueSet set) => _scheduler.OnDemandChanged(set.Owner as ProgramHandle, wantsWorkers: true, starvedOnly: true);

    /// <summary>A task was queued while the repartitioner was dormant: it ticks again at once.</summary>
    public void OnWorkAfterDormant() => _scheduler.EndDormancy();

    public bool IsHomeOf(Worker worker, WorkQueueSet set)
        => ReferenceEquals(_mover.Snapshot.Homes[worker.Slot], set); // volatile read of the snapshot, as FindIdleWork

    public void OnCompensationStarted(WorkQueueSet set, Worker stuck, Worker compensating)
        => _scheduler.RecordCompensation(set, stuck, compensating);

    public void OnCompensationEnded(WorkQueueSet set, Worker compensating)
        => _scheduler.RecordCompensationEnded(set, compensating);
}
