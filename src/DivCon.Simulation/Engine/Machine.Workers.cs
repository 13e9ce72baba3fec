using System.Diagnostics;

namespace DivCon.Simulation.Engine;

/// <summary>The worker loop: steps, queues, stealing, blocking and moves between programs.</summary>
internal sealed partial class Machine
{
    /// <summary>
    /// Starts a step other than a task's (a task step's duration is its work, which memory contention may stretch:
    /// <see cref="StartTaskStep"/>).
    /// </summary>
    private void StartStep(SimWorker w, StepKind kind, long duration, SimTask? task = null)
    {
        Debug.Assert(w.State == WorkerState.Running && duration >= 0 && kind != StepKind.Task, "Only a worker on a core runs a step.");
        w.Step = kind;
        w.Task = task;
        w.StepStart = _now;
        w.StepEnd = _now + duration;
        Schedule(w.StepEnd, EventKind.StepDone, w.Id, w.Stamp);
    }

    private void OnStepDone(SimWorker w)
    {
        StepKind kind = w.Step;
        SimTask? task = w.Task;
        if (kind == StepKind.Task)
        {
            ChargeTask(w, w.StepWork, _now - w.StepStart);
            LeaveMemory(w);
        }
        else
        {
            Charge(kind, _now - w.StepStart);
        }

        w.Step = StepKind.None;
        w.Task = null;
        switch (kind)
        {
            case StepKind.Dispatch:
            case StepKind.Steal:
                StartTaskBody(w, task!);
                return;
            case StepKind.Task:
                CompleteTask(w, task!);
                if (w.Away && TryRecall(w))
                {
                    return; // a recall at this task boundary (Lender.FindRecall)
                }

                Continue(w);
                return;
            case StepKind.Search:
                Continue(w);
                return;
            case StepKind.ContextSwitch:
            case StepKind.Migration when task is null:
                ResumeOrContinue(w);
                return;
            case StepKind.Migration:
                // The cold start of a shared-scheduler worker switching programs: now the task itself.
                StartTaskStep(w, task, task.Cost);
                return;
            default:
                throw new UnreachableException($"Step {kind} has no end.");
        }
    }

    /// <summary>After a switch or cold start: pay a pending cold start, else resume a preempted step, else look for work.</summary>
    private void ResumeOrContinue(SimWorker w)
    {
        if (w.NeedsColdStart)
        {
            w.NeedsColdStart = false;
            _coldStarts++;
            if (_p.MigrationNs > 0)
            {
                StartStep(w, StepKind.Migration, _p.MigrationNs);
                return;
            }
        }

        if (w.SavedStep != StepKind.None)
        {
            StepKind kind = w.SavedStep;
            w.SavedStep = StepKind.None;
            SimTask? saved = w.SavedTask;
            w.SavedTask = null;
            if (kind == StepKind.Task)
            {
                StartTaskStep(w, saved!, w.SavedLeft);
            }
            else
            {
                StartStep(w, kind, (long)w.SavedLeft, saved);
            }

            return;
        }

        Continue(w);
    }

    /// <summary>The worker is on a core between steps: decide what it does next (docs/DESIGN.md §2 order of preference).</summary>
    private void Continue(SimWorker w)
    {
        if (_stopped)
        {
            return;
        }

        if (w.PendingPool is { } target)
        {
            // A move takes effect at a task boundary: a running task is never moved.
            MoveTo(w, target);
            return;
        }

        WorkPool pool = w.Pool;
        SimTask? task = pool.Deques[w.Slot].LocalPop();
        if (task is null && pool.Global.Count > 0)
        {
            task = pool.Global.Dequeue();
        }

        if (task is not null)
        {
            pool.TaskCount--;
            FoundWork(w, pool);
            if (_p.DispatchNs > 0)
            {
                StartStep(w, StepKind.Dispatch, _p.DispatchNs, task);
            }
            else
            {
                StartTaskBody(w, task);
            }

            return;
        }

        if (!w.Searching)
        {
            w.Searching = true;
            pool.Searching++;
        }

        int victims = pool.Active.Count - (pool.Active.Contains(w.Slot) ? 1 : 0);
        if (w.SearchAttempts < _p.SpinAttempts && victims > 0)
        {
            w.SearchAttempts++;
            int victim = RandomVictim(pool, w.Slot);
            SimTask? stolen = pool.Deques[victim].TrySteal();
            if (stolen is not null)
            {
                StartSteal(w, pool, stolen);
            }
            else
            {
                _failedSteals++;
                StartStep(w, StepKind.Search, _p.FailedStealNs);
            }

            return;
        }

        // Last look at every victim before sleeping (the real scheduler's re-check after announcing it sleeps).
        for (int i = 0; i < pool.Active.Count; i++)
        {
            int slot = pool.Active[i];
            if (slot != w.Slot && pool.Deques[slot].Count > 0)
            {
                StartSteal(w, pool, pool.Deques[slot].TrySteal()!);
                return;
            }
        }

        // Ran dry: the pool no longer wants workers (WorkQueueSet.ClearWantsWorkers; the real worker re-checks its
        // queues after clearing, which here the look above already did, at the same instant).
        RanDry(pool);
        if (TryLend(w))
        {
            return;
        }

        Block(w);
    }

    /// <summary>
    /// Runs the task, after a cold start if this is the shared scheduler and the worker's last task was another
    /// program's: the caches hold the other program's data, the same cost a MultiProgramScheduler worker pays when it
    /// moves (charged there at the move, so not here). Other arrangements never switch programs without a move.
    /// </summary>
    private void StartTaskBody(SimWorker w, SimTask task)
    {
        SimProgram program = task.Run.Program;
        bool switched = Arrangement == SchemeArrangement.Shared && w.LastProgram is not null && w.LastProgram != program;
        w.LastProgram = program;
        if (switched && _p.MigrationNs > 0)
        {
            _programSwitches++;
            StartStep(w, StepKind.Migration, _p.MigrationNs, task);
            return;
        }

        StartTaskStep(w, task, task.Cost);
    }

    private void StartSteal(SimWorker w, WorkPool pool, SimTask stolen)
    {
        pool.TaskCount--;
        _steals++;
        FoundWork(w, pool);
        StartStep(w, StepKind.Steal, _p.StealNs, stolen);
    }

    private int RandomVictim(WorkPool pool, int self)
    {
        // Uniform over the active slots other than the thief's own.
        int n = pool.Active.Count;
        int pick = _random.Next(n);
        if (pool.Active[pick] == self)
        {
            pick = (pick + 1 + _random.Next(n - 1)) % n;
        }

        return pool.Active[pick];
    }

    /// <summary>
    /// The worker has a task. If it was searching it stops, and if more tasks are queued it wakes the next worker: the
    /// chain that .NET's thread pool (one outstanding thread request at a time) and Go's scheduler (a spinning thread
    /// that finds work wakes another) use to ramp up without waking every sleeper on every push.
    /// </summary>
    private void FoundWork(SimWorker w, WorkPool pool)
    {
        w.SearchAttempts = 0;
        if (w.Searching)
        {
            StopSearching(w, pool);
            if (pool.TaskCount > 0)
            {
                WakeOne(pool);
            }
        }
    }

    private static void StopSearching(SimWorker w, WorkPool pool)
    {
        w.Searching = false;
        pool.Searching--;
    }

    private void PushLocal(SimWorker w, SimTask task)
    {
        w.Pool.Deques[w.Slot].LocalPush(task);
        w.Pool.TaskCount++;
        WakeOne(w.Pool);
    }

    private void PushGlobal(WorkPool pool, SimTask task)
    {
        pool.Global.Enqueue(task);
        pool.TaskCount++;
        WakeOne(pool);
    }

    /// <summary>
    /// A push wakes one blocked worker of the pool, unless one is already searching: that one will find the task (it
    /// looks at every deque before it blocks) and, finding it, wakes the next (<see cref="FoundWork"/>). Required for
    /// progress: whenever a task is queued, some worker of its pool is searching or has been woken. With no blocked
    /// worker of its own, the pool requests workers (lending and demand: WorkQueueSet.SignalWork's other branch).
    /// </summary>
    private void WakeOne(WorkPool pool)
    {
        if (pool.Sleepers.Count == 0)
        {
            if (Partitioning is not null && TracksDemand)
            {
                RequestWorkers(pool);
            }

            return;
        }

        if (pool.Searching > 0)
        {
            return;
        }

        // A random sleeper, not the longest-sleeping one: which parked thread a real scheduler's signal reaches first
        // is not under its control, and always waking slot 0 would put every program's root (its critical path) on
        // the same low-numbered cores, an artefact that the pinned oversubscribed scheme would punish.
        WakeSleeper(pool, _random.Next(pool.Sleepers.Count));
    }

    /// <summary>Wakes sleeper <paramref name="pick"/> of <paramref name="pool"/> as a searching worker.</summary>
    private void WakeSleeper(WorkPool pool, int pick)
    {
        SimWorker sleeper = pool.Sleepers[pick];
        pool.Sleepers[pick] = pool.Sleepers[^1];
        pool.Sleepers.RemoveAt(pool.Sleepers.Count - 1);
        sleeper.State = WorkerState.Waking;
        sleeper.Searching = true;
        pool.Searching++;
        Schedule(_now + _p.WakeNs, EventKind.Wake, sleeper.Id);
    }

    private void Block(SimWorker w)
    {
        if (w.Searching)
        {
            StopSearching(w, w.Pool);
        }

        w.State = WorkerState.Blocked;
        w.SearchAttempts = 0;
        w.Pool.Sleepers.Add(w);
        ReleaseCore(w);
    }

    private void OnWake(SimWorker w)
    {
        Debug.Assert(w.State == WorkerState.Waking, "Only a woken worker gets a Wake event.");
        w.State = WorkerState.Runnable;
        MakeRunnable(w);
    }

    /// <summary>
    /// Moves a worker to another program's pool (docs/DESIGN.md §3): its deque's tasks go back to the old program's global
    /// queue (oldest first), its slot leaves the old program's victims and joins the new one's, and it starts cold.
    /// </summary>
    private void MoveTo(SimWorker w, WorkPool target)
    {
        w.PendingPool = null;
        WorkPool old = w.Pool;
        if (old == target)
        {
            Continue(w);
            return;
        }

        TaskDeque deque = old.Deques[w.Slot];
        while (deque.TrySteal() is { } left)
        {
            old.Global.Enqueue(left);
            WakeOne(old);
        }

        old.Active.Remove(w.Slot);
        if (w.Searching)
        {
            // It no longer searches the old pool: if tasks wait there, someone else must be woken for them.
            StopSearching(w, old);
            if (old.TaskCount > 0)
            {
                WakeOne(old);
            }
        }

        old.ServedNs += _now - w.ServingSince;
        w.ServingSince = _now;
        w.Pool = target;
        target.Active.Add(w.Slot);
        w.SearchAttempts = 0;
        _workerMoves++;
        StartStep(w, StepKind.Migration, _p.MigrationNs);
    }
}
