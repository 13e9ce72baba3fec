// A WorkerPool supplies threads to queue sets. It owns the threads (one per slot, optionally pinned), and
// assigns each to at most one queue set at a time. The standalone WorkStealingTaskScheduler assigns all of them to
// its own set for good; the MultiProgramScheduler moves them between programs' sets (its mover, Mover.cs) and lets
// idle ones lend themselves (its lender, Lender.cs, the pool's typed owner: IPoolOwner). The protocols of parking,
// moving and shutdown are in Worker.cs; the queues' side in WorkQueueSet.cs. Compensating workers (threads added for
// a while when every worker of a set is stuck in a task, BlockingMonitor.cs) are created and joined here too. One
// construction for both schedulers: PoolConstruction.cs.
using System.Diagnostics;

namespace DivCon.Scheduling;

/// <summary>Owns the worker threads and lends them to queue sets.</summary>
internal sealed class WorkerPool
{
    private readonly Worker[] _workers;
    private readonly CountdownEvent _started;
    private readonly CountdownEvent _exited;

    // Written once by BeginShutdown; read by workers (loop, park re-check).
    private volatile bool _shuttingDown;

    // Idle lending only: workers parked on any set (Interlocked by sleepers; read by producers of every set, which
    // then wake a parked worker of another program: WorkQueueSet.SignalWork). Same asymmetric pairing as a set's
    // own parked count (the sleeper's process-wide barrier).
    private PaddedCounter _parkedLenders;

    // Whether lending's wake-ups and demand marks are on. Off at start; switched only by SetLending (the
    // MultiProgramScheduler's mover, when the lending in force changes). Read on every push without a fence: a producer
    // that reads a stale value only wakes (or fails to wake) a lender it need not (or could have), or marks a demand
    // nobody reads: lending is a speed-up, never what a set's own tasks rely on.
    private bool _lending;

    // Compensation: the monitor (null when off), the compensating workers alive (under _compensatingLock), and the
    // queue sets it watches (copy-on-write under _compensatingLock, read by the monitor without it).
    private BlockingMonitor? _monitor;
    private readonly object _compensatingLock = new();
    private readonly List<Worker> _compensating = [];
    private WorkQueueSet[] _watchedSets = [];
    private int _compensatingNames;

    /// <param name="name">Thread name prefix.</param>
    /// <param name="workerCount">Number of workers (slots).</param>
    /// <param name="processors">Per worker, the processor to pin it to; null for unpinned workers.</param>
    /// <param name="pinner">Pins the calling thread to a processor id; null for unpinned workers.</param>
    public WorkerPool(string name, int workerCount, IReadOnlyList<int>? processors, Action<int>? pinner)
    {
        Debug.Assert(workerCount > 0);
        Debug.Assert(processors is null || processors.Count == workerCount);
        Pinner = processors is null ? null : pinner;
        _workers = new Worker[workerCount];
        for (int i = 0; i < workerCount; i++)
        {
            _workers[i] = new Worker(this, i, processors?[i], $"{name} #{i}");
        }

        _started = new CountdownEvent(workerCount);
        _exited = new CountdownEvent(workerCount);
    }

    public int WorkerCount => _workers.Length;

    /// <summary>
    /// Compensating slots per queue set (0: compensation off). Set before any queue set is created on the pool, with
    /// <see cref="EnableCompensation"/>.
    /// </summary>
    public int MaxCompensatingWorkers { get; private set; }

    /// <summary>
    /// The pool's owner when its workers serve several sets (the MultiProgramScheduler's lender): asked where idle
    /// workers go, told of their own moves and of compensating workers. Null for a standalone scheduler. Set before
    /// <see cref="Start"/>.
    /// </summary>
    public IPoolOwner? Owner { get; set; }

    /// <summary>
    /// Turns blocking compensation on (before any queue set is created): at most <paramref name="maxPerSet"/>
    /// compensating workers per set, started once a set has made no progress for <paramref name="delay"/>.
    /// </summary>
    public void EnableCompensation(int maxPerSet, TimeSpan delay)
    {
        Debug.Assert(maxPerSet > 0 && _monitor is null);
        MaxCompensatingWorkers = maxPerSet;
        _monitor = new BlockingMonitor(this, delay);
    }

    /// <summary>True when compensation is off or its monitor sleeps (nothing queued anywhere): for tests.</summary>
    internal bool BlockingMonitorIsDisarmed => _monitor is null || _monitor.IsDisarmed;

    /// <summary>The queue sets the blocking monitor watches.</summary>
    internal WorkQueueSet[] WatchedSets => Volatile.Read(ref _watchedSets);

    /// <summary>Compensating workers alive now (a copy).</summary>
    internal Worker[] CompensatingWorkers
    {
        get
        {
            lock (_compensatingLock)
            {
                return [.. _compensating];
            }
        }
    }

    /// <summary>The blocking monitor watches <paramref name="set"/> from now on (no-op when compensation is off).</summary>
    internal void Watch(WorkQueueSet set)
    {
        if (_monitor is null)
        {
            return;
        }

        lock (_compensatingLock)
        {
            Volatile.Write(ref _watchedSets, [.. _watchedSets, set]);
        }
    }

    /// <summary>The blocking monitor stops watching <paramref name="set"/> (a removed program).</summary>
    internal void Unwatch(WorkQueueSet set)
    {
        lock (_compensatingLock)
        {
            Volatile.Write(ref _watchedSets, _watchedSets.Where(s => !ReferenceEquals(s, set)).ToArray());
        }
    }

    // 1 while the owner's periodic thread sleeps without a timeout because every set is idle (the MultiProgramScheduler's
    // repartitioner: MultiProgramScheduler.RepartitionLoop). Written 1 by that thread, cleared by the first producer
    // after it (Interlocked) or by the owner.
    private int _ownerDormant;

    /// <summary>
    /// The owner's periodic thread: announces that it will sleep until the next task is queued on any set. The caller
    /// then executes a process-wide barrier and re-checks every set (the pair with <see cref="ArmBlockingMonitor"/>'s
    /// read, as the blocking monitor's disarm).
    /// </summary>
    internal void SetOwnerDormant() => Volatile.Write(ref _ownerDormant, 1);

    /// <summary>Whether the dormant mark is set now (a volatile read; for tests).</summary>
    internal bool IsOwnerDormant => Volatile.Read(ref _ownerDormant) != 0;

    /// <summary>Clears the dormant mark; true if it was set (exactly one caller per dormant spell gets true).</summary>
    internal bool TryClearOwnerDormant() => Interlocked.Exchange(ref _ownerDormant, 0) != 0;

    /// <summary>
    /// Producer (WorkQueueSet.SignalWork): wakes the blocking monitor if it sleeps, and the owner's periodic thread if
    /// it is dormant (one volatile read each when they do not).
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    internal void ArmBlockingMonitor()
    {
        if (_monitor is { } monitor && monitor.IsDisarmed)
        {
            monitor.Arm();
        }

        // Required: no task left without its periodic decision. After the task's publication (program order, as the
        // monitor's read above); pairs with the owner's SetOwnerDormant, process-wide barrier, re-check of every set.
        if (Volatile.Read(ref _ownerDormant) != 0)
        {
            WakeDormantOwner();
        }
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void WakeDormantOwner()
    {
        if (TryClearOwnerDormant())
        {
            ScheduleHook.Yield("dormant.cleared");
            Owner?.OnWorkAfterDormant();
        }
    }

    /// <summary>Blocking monitor: starts a compensating worker for <paramref name="set"/> standing in for <paramref name="stuck"/>.</summary>
    internal bool StartCompensating(WorkQueueSet set, Worker stuck)
    {
        int slot = set.AcquireCompensatingSlot();
        if (slot < 0)
        {
            return false; // every compensating slot of the set is in use (the bound)
        }

        var worker = new Worker(this, slot, processorId: null, $"DivCon compensating #{Interlocked.Increment(ref _compensatingNames)}", compensating: true);
        if (!stuck.TrySetReplacement(worker))
        {
            set.ReleaseCompensatingSlot(slot);
            return false;
        }

        worker.SetInitialAssignment(set);
        lock (_compensatingLock)
        {
            _compensating.Add(worker);
        }

        // Counted and recorded before the thread starts: its tasks and its end (which may come at once) come after.
        set.CountCompensation();
        Owner?.OnCompensationStarted(set, stuck, worker);
        try
        {
            worker.Start();
        }
        catch
        {
            // No thread (out of resources): undo, so that the stuck worker can be stood in for later.
            stuck.ClearReplacement(worker);
            set.ReleaseCompensatingSlot(slot);
            lock (_compensatingLock)
            {
                _compensating.Remove(worker);
            }

            Owner?.OnCompensationEnded(set, worker);
            throw;
        }

        return true;
    }

    /// <summary>A compensating worker's last step on its own thread (after it left its set).</summary>
    internal void OnCompensatingWorkerExited(Worker worker)
    {
        WorkQueueSet? set = worker.CompensatingSet;
        set?.ReleaseCompensatingSlot(worker.Slot);
        lock (_compensatingLock)
        {
            _compensating.Remove(worker);
        }

        if (set is not null)
        {
            Owner?.OnCompensationEnded(set, worker);
        }
    }

    /// <summary>Stealing groups of the slots (null: one group). Set before any queue set is created on the pool.</summary>
    public StealGroups? StealGroups { get; set; }

    /// <summary>The victim order of thieves. Set before any queue set is created on the pool.</summary>
    public StealingScope StealingScope { get; set; }

    public IReadOnlyList<Worker> Workers => _workers;

    public Action<int>? Pinner { get; }

    public bool IsShuttingDown => _shuttingDown;

    /// <summary>True when the calling thread is one of this pool's workers.</summary>
    public bool IsCurrentThreadAWorker => ReferenceEquals(Worker.Current?.Pool, this);

    /// <summary>Starts every worker and waits until each has pinned itself (or failed to) and entered its set.</summary>
    public void Start()
    {
        foreach (Worker worker in _workers)
        {
            worker.Start();
        }

        ScheduleHook.BlockUntil(() => _started.IsSet, "pool.started");
        _started.Wait();
        _monitor?.Start();
    }

    /// <summary>
    /// Producer (WorkQueueSet.SignalWork): with lending, whether some worker is parked anywhere, so that work queued
    /// for a program whose own workers are all busy (or which holds none) can wake an idle worker of another.
    /// </summary>
    internal bool HasParkedLender
    {
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
        get => _lending && Volatile.Read(ref _parkedLenders.Value) != 0;
    }

    internal bool IsLending => _lending;

    /// <summary>
    /// Producers mark demand (WorkQueueSet.RequestWorkers) when lending is in force or the owner repartitions on demand
    /// (<see cref="DemandDriven"/>); read on a push only while no worker of the set is parked.
    /// </summary>
    internal bool TracksDemand => _lending || DemandDriven || TracksStarvation;

    /// <summary>
    /// The owner wants to hear when a set with no worker gets work (MultiProgramScheduler.RepartitionWhenStarved; set
    /// before <see cref="Start"/>): producers then mark demand as with lending, and the owner decides what to do.
    /// </summary>
    internal bool TracksStarvation { get; set; }

    /// <summary>
    /// A switch this long (Stopwatch ticks) after the assignment changed is reported to the owner as a move that waited
    /// on a running task (IPoolOwner.OnPendingMoveEnded): 1 ms, far above a parked or searching worker's reaction.
    /// </summary>
    internal long PendingMoveThresholdTicks { get; } = Stopwatch.Frequency / 1000;

    /// <summary>The owner repartitions when a set's demand changes (set before <see cref="Start"/>).</summary>
    internal bool DemandDriven { get; set; }

    /// <summary>
    /// Switches lending's wake-ups on or off after <see cref="Start"/> (the MultiProgramScheduler, when the lending in
    /// force changes). Switching on wakes every parked worker, so that each parks again counted as a lender.
    /// </summary>
    internal void SetLending(bool on)
    {
        Volatile.Write(ref _lending, on);
        if (!on)
        {
            return; // producers stop waking lenders; workers already counted stay counted until they wake (harmless)
        }

        // Required for the switch to reach every parked worker (Dekker pair): Park writes Parked, then increments its
        // set's parked count (Interlocked: a full fence), then reads IsLending; here the write above, then TryWake's CAS
        // (a full fence) reads the park state. Either the worker read true, or its CAS sees Parked and wakes it, and it
        // parks again as a lender.
        foreach (Worker worker in _workers)
        {
            worker.TryWake();
        }
    }

    internal void AddParkedLender() => Interlocked.Increment(ref _parkedLenders.Value);

    internal void RemoveParkedLender() => Interlocked.Decrement(ref _parkedLenders.Value);

    internal void ReportStarted() => _started.Signal();

    internal void ReportExited() => _exited.Signal();

    /// <summary>Waker: wakes one worker parked on <paramref name="set"/>, if any (or, with lending, any parked worker).</summary>
    public void WakeOneFor(WorkQueueSet set)
    {
        if (!TryWakeParkedOn(set) && _lending)
        {
            // Lending: no worker of the set is parked; a worker parked on another set may come and help.
            TryWakeFirst(set, static (worker, _) => worker.ParkedOn is not null && worker.TryWake());
        }
    }

    /// <summary>
    /// Waker: wakes one worker parked on <paramref name="set"/> itself (never a lender of another set); true if this call
    /// woke one. The woken worker leaves Worker.Park on <paramref name="set"/>, which is what WorkQueueSet's wake token
    /// relies on.
    /// </summary>
    public bool TryWakeParkedOn(WorkQueueSet set) => TryWakeFirst(set, static (worker, s) => worker.TryWakeIfParkedOn(s));

    // Tries tryWake on each worker in turn, from a per-thread start so that concurrent wakers spread over different
    // workers; true once one of them woke its worker.
    private bool TryWakeFirst(WorkQueueSet set, Func<Worker, WorkQueueSet, bool> tryWake)
    {
        Worker[] workers = _workers;
        int n = workers.Length;
        int start = (int)((uint)Environment.CurrentManagedThreadId % (uint)n);
        ScheduleHook.Choose(n, ref start);
        for (int k = 0; k < n; k++)
        {
            int i = start + k;
            if (i >= n)
            {
                i -= n;
            }

            if (tryWake(workers[i], set))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// Worker with nothing to do in <paramref name="serving"/> (after spinning, before parking): asks the owner where to
    /// go, and moves itself there by a CAS on its own assignment (a concurrent mover wins). Returns that set, or null.
    /// </summary>
    /// <remarks>
    /// Required (a move by the mover always wins over a self-move): the assignment token is read before the owner reads
    /// its snapshot (both volatile reads, in this order), and the CAS expects that token. The mover publishes a decision
    /// before it writes any worker's assignment, and writes a new token for every worker it applies a decision to
    /// (Mover.Reassign). So a decision published after the snapshot read writes its token after the token read: before
    /// our CAS, which then fails, or after it, replacing our move. And when our token came from a decision's write, that
    /// decision was published before it (acquire on the token read), so the snapshot read sees it or a later one.
    /// </remarks>
    internal WorkQueueSet? TryFindIdleWork(Worker worker, WorkQueueSet serving, out SelfMove kind)
    {
        kind = SelfMove.Return;
        if (Owner is not { } owner)
        {
            return null;
        }

        WorkerAssignment token = worker.Assignment; // before the snapshot (see the remarks)
        IdleMove move = owner.FindIdleWork(worker, serving);
        if (move.Target is { } target && worker.TryReplaceAssignment(token, serving, target))
        {
            kind = move.Kind;
            owner.OnSelfMove(worker, serving, target, move.Kind);
            return target;
        }

        return null;
    }

    /// <summary>A lent worker, inside a task: whether its home wants it back (read only: the recall itself happens at the boundary).</summary>
    internal bool IsRecallWanted(Worker worker, WorkQueueSet serving) => Owner?.FindRecall(worker, serving, out _) is not null;

    /// <summary>
    /// Worker that lent itself, at a task boundary: moves itself home when its home wants it back (recall, by the same
    /// CAS, with the token read before the snapshot as in <see cref="TryFindIdleWork"/>). Returns the home it moved to,
    /// or null; <paramref name="away"/> false once it is no longer away.
    /// </summary>
    internal WorkQueueSet? TryRecall(Worker worker, WorkQueueSet serving, out bool away)
    {
        away = false;
        if (Owner is not { } owner)
        {
            return null;
        }

        WorkerAssignment token = worker.Assignment; // required: before the snapshot (TryFindIdleWork's remarks)
        WorkQueueSet? home = owner.FindRecall(worker, serving, out away);
        if (home is not null && worker.TryReplaceAssignment(token, serving, home))
        {
            owner.OnSelfMove(worker, serving, home, SelfMove.Recall);
            away = false;
            return home;
        }

        return null;
    }

    /// <summary>Park re-check: whether the owner would move <paramref name="worker"/> away from <paramref name="parkedOn"/>.</summary>
    internal bool HasIdleWorkFor(Worker worker, WorkQueueSet? parkedOn)
        => parkedOn is not null && Owner is { } owner && owner.FindIdleWork(worker, parkedOn).Target is not null;

    /// <summary>Shutdown steps 2 and 3 (Worker.cs): workers finish the visible work of their sets, then exit.</summary>
    public void BeginShutdown()
    {
        ScheduleHook.Yield("shutdown.flag");
        _shuttingDown = true;
        _monitor?.Stop();

        // Full fence: pairs with Park's increment before its re-check of IsShuttingDown.
        Interlocked.MemoryBarrier();
        foreach (Worker worker in _workers)
        {
            worker.TryWake();
        }
    }

    /// <summary>Waits for every worker thread to exit; false on timeout.</summary>
    public bool Join(TimeSpan timeout)
    {
        if (timeout == Timeout.InfiniteTimeSpan)
        {
            Join();
            return true;
        }

        long deadline = Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        if (!_exited.Wait(timeout))
        {
            return false;
        }

        // The monitor first (it starts no compensating worker after that), then the compensating workers, which exit
        // once their set is idle (they never park).
        bool JoinBefore(Thread thread)
            => thread == Thread.CurrentThread
            || thread.Join(TimeSpan.FromSeconds((double)Math.Max(0, deadline - Stopwatch.GetTimestamp()) / Stopwatch.Frequency));
        if (_monitor?.Thread is { } monitorThread && !JoinBefore(monitorThread))
        {
            return false;
        }

        foreach (Worker compensating in CompensatingWorkers)
        {
            if (!JoinBefore(compensating.Thread))
            {
                return false;
            }
        }

        // A worker signals _exited as its last statement, so its thread may still be alive for a moment after the
        // wait: join the threads too, so "joined" means no thread of the pool is left (never the calling thread,
        // which may be a worker disposing its own pool).
        foreach (Worker worker in _workers)
        {
            if (worker.Thread == Thread.CurrentThread)
            {
                continue;
            }

            long remaining = Math.Max(0, deadline - Stopwatch.GetTimestamp());
            if (!worker.Thread.Join(TimeSpan.FromSeconds((double)remaining / Stopwatch.Frequency)))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Waits for every worker thread to exit.</summary>
    public void Join()
    {
        ScheduleHook.BlockUntil(() => _exited.IsSet, "pool.exited");
        _exited.Wait();
        foreach (Worker worker in _workers)
        {
            if (worker.Thread != Thread.CurrentThread)
            {
                worker.Thread.Join();
            }
        }

        // The monitor first (it starts no compensating worker after that), then the compensating workers.
        if (_monitor?.Thread is { } monitorThread && monitorThread != Thread.CurrentThread)
        {
            monitorThread.Join();
        }

        foreach (Worker compensating in CompensatingWorkers)
        {
            if (compensating.Thread != Thread.CurrentThread)
            {
                compensating.Thread.Join();
            }
        }
    }
}
