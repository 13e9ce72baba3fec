// Protocol of a queue set: the queue superstructure of one scheduler (standalone) or one program
// (MultiProgramScheduler). It owns tasks, never threads: a WorkerPool lends workers to it.
//
// Roles
//   producer - any thread queuing a task. A worker currently serving this set pushes to its own slot's deque;
//              every other thread (outside threads, the pool's workers serving other sets) enqueues to the global
//              FIFO queue.
//   owner    - the worker serving slot i: pops slot i's deque, drains it into the global queue when it leaves.
//   thief    - a worker serving this set that found its own deque and the global queue empty: steals from the
//              other slots, starting at a random one, never waiting on a busy victim. With StealingScope
//              CacheGroupFirst it sweeps its own stealing group first and the other groups after; the two sweeps
//              together still visit every other slot once, so a failed sweep means the same as with All (nothing
//              visible, or a busy victim: missed) and the parking and exit protocols below are unchanged.
//   supplier - the WorkerPool: told when work appears while some of the set's workers are parked.
//
// No lost wake-up (required), written on both sides. It is an asymmetric Dekker pair: the frequent side (a push)
// pays no fence, the rare side (a worker about to block) pays a process-wide one.
//   producer: publish the task (deque tail / global queue: a volatile store) -> read _parked, then _searching and
//             _wakePending (volatile loads) -> if a worker is parked, none is searching and no wake is pending, take the
//             wake token and wake one worker parked on this set (WakeSearcher).
//   sleeper : (Worker.Park) announce Parked, stop searching (_searching--) and increment _parked (Interlocked) ->
//             Interlocked.MemoryBarrierProcessWide (every processor executes a full fence: a producer's store still in a
//             store buffer is drained) -> re-check the queues (HasVisibleWork), its assignment and shutdown -> only then
//             block.
//   A producer whose loads retired before the process-wide fence also retired its earlier store of the task, which
//   the fence drains, so the sleeper's re-check sees the task; a producer whose loads retired after the fence sees the
//   sleeper's updates. The only thing the producer needs from the compiler is that its loads stay after its store in
//   program order, which a volatile store followed by volatile loads gives on RyuJIT.
//
// Searching workers and the wake token (throttle: one futex wake per idle spell, not one per task). A worker is
// *searching* from its first spin of the idle path until it takes a task, parks, is moved or exits (_searching counts
// them). A producer wakes nobody while a worker is searching or a wake is pending. That is safe because of three
// obligations, each keeping the "someone will look at the queues after this task became visible" promise:
//   1. A searcher blocks only through Park, i.e. after the process-wide barrier and a re-check (above).
//   2. A searcher that stops searching any other way (it found a task, was moved, exits) and was the last one wakes a
//      parked worker of the set if there is one (StopSearching), without looking at the queues: a producer may have
//      skipped its wake-up because of this searcher, and its task may not be visible here yet.
//   3. The wake token (_wakePending, taken by CAS 0 -> 1) is held by a waker until a worker it woke leaves Park on this
//      set, where the woken worker counts itself as searching (_searching++) before it releases the token, so there is
//      always a searcher or a pending wake. A waker that finds nobody to wake (they were all being woken) releases the
//      token, executes the process-wide barrier (pairing with producers that read the token with no fence) and looks
//      again.
//   The strict form of the promise — every task queued while a worker is parked wakes a worker — is deliberately
//   given up: a task may wait for a searcher that is still spinning, never for a worker that is blocked.
//   Outside producers (EnqueueExternal) use Interlocked operations anyway, which are full fences.
//   With idle lending (a MultiProgramScheduler option) a producer with no parked worker of its own set marks the set as
//   wanting workers (_wantsWorkers, below) and wakes a worker parked on any set (WorkerPool.HasParkedLender, same
//   asymmetric pairing, no token), so a program whose own workers are busy, lent, or which holds none, gets an idle
//   worker of another program at once (Lender.cs: the loan ends when the lender's home wants it back, when the
//   borrower runs dry, or at the next allocation).
//
// Demand (lending or demand-driven repartitioning only; a speed-up, never what a set's own tasks rely on): _wantsWorkers is 1 from a producer that
// queued a task while no worker of the set was parked (RequestWorkers), until a worker serving the set runs out of
// work (ClearWantsWorkers). A worker lent away from this set reads it at each task boundary and comes home when it is
// set (recall). Pairing (required: no task stranded by a lender leaving): the producer publishes its task, then sets
// the flag; the clearing worker clears it with an Interlocked exchange (a full fence), then re-checks the queues
// (HasVisibleWork) before it lends itself away. Either the re-check sees the task, or the producer's set comes after
// the clear and stays. A lost demand (a clear racing a set) only delays a recall until the next push or decision.
//
// Compensating slots: besides one slot per pool worker, a set has pool.MaxCompensatingWorkers more, lent one at a
// time to a compensating worker (Worker.cs, BlockingMonitor.cs) and returned when it exits. Thieves and HasVisibleWork
// sweep the slots in use (_activeSlots, a high-water mark that only grows; a slot's counters are zero until it is
// first used), and so do the counter sums (AvailableTasks, IsIdle: see there why its exactness survives).
//
// Late tasks (required: a continuation is never lost, issue 14 defect 3): once the set is closed (Dispose, removal),
// a task queued from outside its workers (typically an await continuation coming back on a timer or I/O thread) is
// neither rejected nor dropped: it runs on a .NET thread-pool thread, outside the pool (whose workers no longer serve
// the set), and is counted (LateTasks). Rejecting it would be silent: the TPL swallows a scheduler's exception for an
// await continuation, which then never runs and its async method never completes.
//
// External queuing and shutdown (required: a task accepted is never stranded)
//   An outside producer increments _externalInFlight (full fence), then reads _acceptingExternal; the closer writes
//   _acceptingExternal = false, then (after a fence) workers decide to exit only when the set is idle (nothing queued
//   or running, IsIdle) and _externalInFlight is zero. So an accepted external task is always visible to a worker that
//   could exit, and a running task that queues a child always has a worker left to run it.
//   Tasks queued by the set's own workers are accepted while they run (the work already started may finish).
//
// Counting without a shared write on the worker's path: each slot has monotone counters that only its worker
// writes (Pushed, Taken, Finished: WorkerCounters), outside producers one Interlocked counter (_externalQueued).
//   available   = external + Σ(Pushed - Taken): O(slots), independent of how many tasks are queued; racy reads may
//                 be off by the tasks in flight and are clamped at zero (a load estimate for policies).
//   outstanding = external + ΣPushed - ΣFinished, read Finished first, then the pushes (IsIdle). Exact when it reads
//                 zero: a task counted as finished was counted as pushed before (a worker counts a push before it
//                 publishes the task, the publication happens-before the take, which happens-before the Finished store
//                 we read), so the pushes read afterwards include every finished task; equal sums then mean every counted push has finished, and nothing else can be running.
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace DivCon.Scheduling;

/// <summary>Global FIFO queue + one work-stealing deque per worker slot + counters.</summary>
internal sealed class WorkQueueSet
{
    private readonly ConcurrentQueue<Task> _global = new();
    private readonly WorkStealingDeque<Task>[] _deques;
    private readonly WorkerCounters[] _counters;
    private readonly ITaskExecutor _executor;
    private readonly WorkerPool _pool;

    // The pool's stealing groups and scope, fixed before the set is created (null: one group, scope All).
    private readonly StealGroups? _stealGroups;
    private readonly StealingScope _scope;

    // Workers serving this set that are parked or about to park. Written by sleepers (Interlocked); read by producers.
    private PaddedCounter _parked;

    // Workers serving this set that are searching (see the header). Interlocked by workers; read by producers.
    private PaddedCounter _searching;

    // The wake token: 1 while a waker's wake-up is on its way to a parked worker (see the header, obligation 3).
    private PaddedCounter _wakePending;

    // Tasks queued by outside producers (Interlocked increments); the workers that take them count -1 on their slot.
    private PaddedCounter _externalQueued;

    // Outside producers between their acceptance check and their enqueue (Interlocked, see the header).
    private PaddedCounter _externalInFlight;

    // Written by the closer (Close), read by outside producers.
    private volatile bool _acceptingExternal = true;

    // Slots below this may hold tasks (regular slots, and compensating slots ever lent). Raised under _slotLock.
    private volatile int _activeSlots;

    // Compensating slots returned by exited compensating workers (under _slotLock), and the next never-used one.
    private readonly Stack<int> _freeSlots = new();
    private readonly object _slotLock = new();
    private int _nextSlot;

    // Late tasks run on the thread pool after close (Interlocked).
    private long _lateTasks;

    // LongRunning tasks running on their own thread (Interlocked: +1 before the thread starts, -1 when the task returns),
    // and how many ran.
    private PaddedCounter _dedicatedRunning;
    private long _dedicatedTasks;


    // Compensating workers started for this set (Interlocked by the blocking monitor).
    private long _compensations;

    // 1 while the set wants workers (header, Demand): set by producers (lending only), cleared by a worker serving the
    // set that ran out of work (Interlocked); read by workers lent away from it at each task boundary.
    private PaddedCounter _wantsWorkers;

    public WorkQueueSet(WorkerPool pool, ITaskExecutor executor, string name, int dequeInitialCapacity = WorkStealingDeque<Task>.DefaultInitialCapacity, int dequeStartIndex = 0)
    {
        _pool = pool;
        _executor = executor;
        _stealGroups = pool.StealGroups;
        _scope = pool.StealingScope;
        Name = name;
        int slots = pool.WorkerCount + pool.MaxCompensatingWorkers;
        _deques = new WorkStealingDeque<Task>[slots];
        for (int i = 0; i < _deques.Length; i++)
        {
            _deques[i] = new WorkStealingDeque<Task>(dequeInitialCapacity, dequeStartIndex);
        }

        _counters = new WorkerCounters[slots];
        _activeSlots = pool.WorkerCount;
        _nextSlot = pool.WorkerCount;
    }

    public string Name { get; }

    /// <summary>Tasks run on the thread pool because they were queued from outside after the set was closed.</summary>
    public long LateTasks => Interlocked.Read(ref _lateTasks);

    /// <summary>Compensating workers started for this set.</summary>
    public long Compensations => Interlocked.Read(ref _compensations);

    /// <summary>Slots that ever served (the pool's, then compensating slots ever lent): statistics cover these.</summary>
    public int UsedSlotCount => _activeSlots;

    /// <summary>Blocking monitor: a free compensating slot (marked in use), or -1 when all are in use.</summary>
    internal int AcquireCompensatingSlot()
    {
        lock (_slotLock)
        {
            int slot;
            if (_freeSlots.Count > 0)
            {
                slot = _freeSlots.Pop();
            }
            else if (_nextSlot < _deques.Length)
            {
                slot = _nextSlot++;
                // Release: a thief that reads the new count sweeps the new slot (its deque exists from the start).
                _activeSlots = _nextSlot;
            }
            else
            {
                return -1;
            }

            return slot;
        }
    }

    /// <summary>Blocking monitor: a compensating worker was started for this set.</summary>
    internal void CountCompensation() => Interlocked.Increment(ref _compensations);

    /// <summary>A compensating worker that left its slot (after Leave: its deque is drained) gives it back.</summary>
    internal void ReleaseCompensatingSlot(int slot)
    {
        lock (_slotLock)
        {
            _freeSlots.Push(slot);
        }
    }

    /// <summary>
    /// Blocking monitor: a progress stamp (tasks taken plus tasks finished, all slots) and whether tasks are queued.
    /// Racy; two equal stamps an interval apart with tasks queued mean nobody took or finished a task meanwhile.
    /// </summary>
    internal long ProgressStamp()
    {
        long stamp = 0;
        int active = _activeSlots;
        for (int i = 0; i < active; i++)
        {
            stamp += Volatile.Read(ref _counters[i].Taken) + Volatile.Read(ref _counters[i].Finished);
        }

        return stamp;
    }

    /// <summary>Blocking monitor: true when the worker of <paramref name="slot"/> is inside a task (taken, not finished).</summary>
    internal bool IsRunningTask(int slot)
        => Volatile.Read(ref _counters[slot].Taken) > Volatile.Read(ref _counters[slot].Finished);

    /// <summary>The set's owner in a shared pool (a MultiProgramScheduler program); null for a standalone scheduler. Set once, before use.</summary>
    public IQueueSetOwner? Owner { get; set; }

    /// <summary>Any thread: whether the set wants workers (a task queued while none of its workers was parked; header, Demand).</summary>
    public bool WantsWorkers
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            ScheduleHook.Yield("demand.read");
            return Volatile.Read(ref _wantsWorkers.Value) != 0;
        }
    }

    /// <summary>
    /// Worker serving this set that found no work and is about to lend itself away (header, Demand): clears the flag
    /// with a full fence. The caller re-checks the queues afterwards. True when the flag was set.
    /// </summary>
    public bool ClearWantsWorkers()
    {
        if (Volatile.Read(ref _wantsWorkers.Value) == 0)
        {
            return false;
        }

        ScheduleHook.Yield("demand.clear");
        if (Interlocked.Exchange(ref _wantsWorkers.Value, 0) == 0)
        {
            return false;
        }

        _pool.Owner?.OnDemandChanged(this, wantsWorkers: false);
        return true;
    }

    /// <summary>
    /// The owner's decision left the set with no worker (MultiProgramScheduler's mover): clears the demand mark without
    /// telling the owner, so that the set's next producer sets it again and signals a starved set. Full fence (pairs with
    /// the leaving worker's barrier in Worker.SwitchTo; Mover.Apply says why).
    /// </summary>
    public void ResetWantsWorkers() => Interlocked.Exchange(ref _wantsWorkers.Value, 0);

    /// <summary>The pool's worker slots (compensating slots come after these).</summary>
    public int SlotCount => _pool.WorkerCount;

    public WorkerPool Pool => _pool;

    public bool IsAcceptingExternal => _acceptingExternal;

    /// <summary>Tasks queued and not yet taken by a worker: O(slots), racy, never negative.</summary>
    public int AvailableTasks
    {
        get
        {
            long sum = Volatile.Read(ref _externalQueued.Value);
            int active = _activeSlots;
            for (int i = 0; i < active; i++)
            {
                sum += Volatile.Read(ref _counters[i].Pushed) - Volatile.Read(ref _counters[i].Taken);
            }

            return (int)Math.Clamp(sum, 0, int.MaxValue);
        }
    }

    /// <summary>
    /// True when no task of this set is queued or running (see the header for why a zero read is exact). Only
    /// meaningful once outside producers are shut out (<see cref="CloseExternal"/>), or as a momentary observation.
    /// </summary>
    public bool IsIdle()
    {
        ScheduleHook.Yield("idle.read");
        long finished = 0;
        int active = _activeSlots;
        for (int i = 0; i < active; i++)
        {
            finished += Volatile.Read(ref _counters[i].Finished); // acquire: pairs with the Volatile.Write in Execute
        }

        // Full fence: pairs with EnqueueExternal's increment of _externalInFlight.
        Interlocked.MemoryBarrier();
        // In flight before queued: a producer increments _externalQueued before it leaves _externalInFlight, so an
        // outside task is counted by at least one of the two reads (twice at worst, which only reads "not idle").
        // A dedicated (LongRunning) task counts as one running task; read before the outside queue count, which then
        // includes every task it queued before it returned.
        long pushed = Volatile.Read(ref _dedicatedRunning.Value);
        pushed += Volatile.Read(ref _externalInFlight.Value);
        pushed += Volatile.Read(ref _externalQueued.Value);

        // The slots in use read again, after the finished counts (compensating slots, header): a finished task's push
        // happened in a slot already in use before it was taken and finished, so this count includes it.
        active = _activeSlots;
        for (int i = 0; i < active; i++)
        {
            pushed += Volatile.Read(ref _counters[i].Pushed);
        }

        return pushed == finished;
    }

    /// <summary>Counters of one slot; written only by the worker serving that slot.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ref WorkerCounters CountersOf(int slot) => ref _counters[slot];

    /// <summary>
    /// A scheduler's QueueTask: a LongRunning task on a dedicated thread when <see cref="TryRunDedicated"/> takes it,
    /// any other task through <see cref="Enqueue"/>. Inlined into both schedulers' QueueTask, as Enqueue was before
    /// they shared this body: the push path keeps one call.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Schedule(Task task)
    {
        ArgumentNullException.ThrowIfNull(task);
        if ((task.CreationOptions & TaskCreationOptions.LongRunning) == 0 || !TryRunDedicated(task))
        {
            Enqueue(task);
        }
    }

    /// <summary>Producer: queues a task (see the header for where it goes).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Enqueue(Task task)
    {
        Worker? worker = Worker.Current;
        if (worker is not null && ReferenceEquals(worker.Serving, this))
        {
            int slot = worker.Slot;

            // Count, then publish (required by IsIdle): the deque's publication is a release, so a thief that takes
            // and finishes this task, and a reader that then sees its Finished count, also see this push counted.
            WorkerCounters.Bump(ref _counters[slot].Pushed); // owner only
            _deques[slot].LocalPush(task);
            ScheduleHook.Yield("enqueue.local-published");
            SignalWork();
        }
        else
        {
            EnqueueExternal(task);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void EnqueueExternal(Task task)
    {
        // Full fence: pairs with Close's write of _acceptingExternal and the exiting worker's read of
        // _externalInFlight (WorkerMayExit): either we see the close, or the worker sees us in flight.
        Interlocked.Increment(ref _externalInFlight.Value);
        ScheduleHook.Yield("external.in-flight");
        try
        {
            if (!_acceptingExternal)
            {
                RunLate(task);
                return;
            }

            _global.Enqueue(task);
            Interlocked.Increment(ref _externalQueued.Value);
        }
        finally
        {
            Interlocked.Decrement(ref _externalInFlight.Value);
        }

        ScheduleHook.Yield("external.published");
        SignalWork();
    }

    /// <summary>
    /// A LongRunning task: on a dedicated thread outside the pool when compensation is on (false: queue it as usual).
    /// Counted as running until it returns, so Dispose and removal wait for it (IsIdle).
    /// </summary>
    public bool TryRunDedicated(Task task)
    {
        if (_pool.MaxCompensatingWorkers == 0 || !_acceptingExternal)
        {
            return false; // compensation off: no thread beyond the pool; closed: the usual path (late or a worker's child)
        }

        Interlocked.Increment(ref _dedicatedRunning.Value); // before the thread can run it (IsIdle reads it)
        Interlocked.Increment(ref _dedicatedTasks);
        var thread = new Thread(static state =>
        {
            var (set, t) = ((WorkQueueSet, Task))state!;
            try
            {
                set._executor.ExecuteTask(t);
            }
            finally
            {
                Interlocked.Decrement(ref set._dedicatedRunning.Value);
            }
        })
        { IsBackground = true, Name = "DivCon long-running" };
        thread.Start((this, task));
        return true;
    }

    /// <summary>LongRunning tasks run on a dedicated thread.</summary>
    public long DedicatedTasks => Interlocked.Read(ref _dedicatedTasks);

    // See the header (late tasks): on the thread pool, counted, never rejected.
    private void RunLate(Task task)
    {
        Interlocked.Increment(ref _lateTasks);
        Owner?.LateTaskQueued();
        ThreadPool.UnsafeQueueUserWorkItem(static state => state.Executor.ExecuteTask(state.Task), (Executor: _executor, Task: task), preferLocal: false);
    }

    /// <summary>Producer side of the no-lost-wake-up protocol (see the header).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void SignalWork()
    {
        // No fence here (required ordering, not free): these volatile loads follow the task's volatile publication in
        // program order; the hardware reordering of store and loads is closed by the sleeper's process-wide barrier in
        // Worker.Park (see the header).
        _pool.ArmBlockingMonitor();
        ScheduleHook.Yield("signal.read-parked");
        if (Volatile.Read(ref _parked.Value) != 0)
        {
            ScheduleHook.Yield("signal.read-searching");
            if (Volatile.Read(ref _searching.Value) == 0 && Volatile.Read(ref _wakePending.Value) == 0)
            {
                WakeSearcher();
            }
        }
        else if (_pool.TracksDemand && (Volatile.Read(ref _wantsWorkers.Value) == 0 || _pool.HasParkedLender))
        {
            RequestWorkers(); // inline above: the common case (demand already marked, no parked lender) costs two reads
        }
    }

    /// <summary>
    /// Producer, lending (or demand-driven repartitioning) on, no worker of this set parked: marks the set as wanting
    /// workers (its lent workers come home at their next task boundary; header, Demand) and, with lending, wakes a worker
    /// parked on any set, which may lend itself here.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void RequestWorkers()
    {
        // After the task's publication (program order; the clearing side's exchange and re-check pair with it).
        ScheduleHook.Yield("demand.set");
        if (Volatile.Read(ref _wantsWorkers.Value) == 0 && Interlocked.Exchange(ref _wantsWorkers.Value, 1) == 0)
        {
            _pool.Owner?.OnDemandChanged(this, wantsWorkers: true);
        }

        if (_pool.HasParkedLender)
        {
            _pool.WakeOneFor(this);
        }
    }

    /// <summary>
    /// Wakes one worker parked on this set, holding the wake token until it leaves Park (header, obligation 3); does
    /// nothing when the token is taken.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WakeSearcher()
    {
        // CAS: a full fence; only one waker at a time holds the token.
        ScheduleHook.Yield("wake.take-token");
        while (Interlocked.CompareExchange(ref _wakePending.Value, 1, 0) == 0)
        {
            if (_pool.TryWakeParkedOn(this))
            {
                return; // the woken worker releases the token in Worker.Park (OnUnparked)
            }

            ScheduleHook.Yield("wake.release-token");
            // Nobody to wake: every parked worker was being woken by someone else, or none is parked any more. A
            // producer may have skipped its wake-up because it read our token: release it, let every processor fence
            // (the producer's task is then visible here), and look again.
            Volatile.Write(ref _wakePending.Value, 0);
            Interlocked.MemoryBarrierProcessWide();

            // A poll (for the explorer): another worker's wake-up is on its way and this loop waits for it to land.
            bool polled = false;
            ScheduleHook.Spin("wake.recheck", ref polled);
            if (Volatile.Read(ref _parked.Value) == 0 || Volatile.Read(ref _searching.Value) != 0 || !HasVisibleWork())
            {
                return;
            }

            ScheduleHook.Yield("wake.take-token");
        }
    }

    /// <summary>Worker that found a task at once (ramp-up): wakes a parked worker of this set, token permitting.</summary>
    public void WakeIfParked()
    {
        if (Volatile.Read(ref _parked.Value) != 0)
        {
            WakeSearcher();
        }
    }

    /// <summary>Worker: starts searching (its first spin of the idle path, header).</summary>
    public void StartSearching()
    {
        ScheduleHook.Yield("search.start");
        Interlocked.Increment(ref _searching.Value);
    }

#if DEBUG
    /// <summary>
    /// Tests only: the last searcher's lending wake (StopSearching) switched off, so that the explorer can show it finds
    /// the stranded task that causes. Never set outside the explorer test.
    /// </summary>
    internal static bool s_lendOnStopOffForTests;
#endif

    /// <summary>
    /// Worker: stops searching other than by parking (it found a task, was moved, exits). The last searcher wakes a
    /// parked worker of this set, if any (header, obligation 2); with lending, else a parked lender while work is visible.
    /// </summary>
    public void StopSearching()
    {
        // Interlocked: a full fence, so the parked count read next is not older than the decrement.
        ScheduleHook.Yield("search.stop");
        if (Interlocked.Decrement(ref _searching.Value) == 0)
        {
            if (Volatile.Read(ref _parked.Value) != 0)
            {
                WakeSearcher();
            }
            else if (_pool.HasParkedLender && HasVisibleWork()
#if DEBUG
                && !s_lendOnStopOffForTests
#endif
                )
            {
                // Lending: the wake a producer skipped because a worker of this set was parked (or being woken) went to
                // that worker, which has just taken one task; no worker of this set is parked to take the rest, so it
                // goes to a parked lender (found by LoopMoveTests: a loop's second replica waited for ever while the
                // idle worker of another program stayed parked). One volatile read on this path while no worker is
                // parked anywhere. Residual: a task whose publication this sweep misses (no fence against the
                // producer's store) waits for the next push, as a demand lost to a racing clear does (header, Demand).
                RequestWorkers();
            }
        }
    }

    /// <summary>
    /// Sleeper (Worker.Park, before its process-wide barrier): counted as parked; a searcher stops searching in the
    /// same step.
    /// </summary>
    public void OnParking(bool searching)
    {
        ScheduleHook.Yield("park.count");
        if (searching)
        {
            Interlocked.Decrement(ref _searching.Value);
        }

        Interlocked.Increment(ref _parked.Value);
    }

    /// <summary>
    /// Sleeper leaving Park (woken or not): no longer parked, searching again, then releases the wake token (in this
    /// order: a producer never sees neither a searcher nor a pending wake while this worker is about to look).
    /// </summary>
    public void OnUnparked()
    {
        ScheduleHook.Yield("unpark.parked");
        Interlocked.Decrement(ref _parked.Value);
        ScheduleHook.Yield("unpark.searching");
        Interlocked.Increment(ref _searching.Value);
        ScheduleHook.Yield("unpark.release-token");
        if (Volatile.Read(ref _wakePending.Value) != 0)
        {
            Volatile.Write(ref _wakePending.Value, 0);
        }
    }

    public bool HasParked => Volatile.Read(ref _parked.Value) != 0;

    /// <summary>True when some worker of this set is searching or a wake-up is on its way.</summary>
    public bool HasSearcherOrPendingWake
        => Volatile.Read(ref _searching.Value) != 0 || Volatile.Read(ref _wakePending.Value) != 0;

    /// <summary>Tests: the searching count and the wake token.</summary>
    internal (long Searching, long WakePending, long Parked) WakeState
        => (Volatile.Read(ref _searching.Value), Volatile.Read(ref _wakePending.Value), Volatile.Read(ref _parked.Value));

    /// <summary>Owner: the next task of its own deque (LIFO), or null.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public Task? LocalPop(int slot)
    {
        Task? task = _deques[slot].LocalPop();
        if (task is not null)
        {
            WorkerCounters.Bump(ref _counters[slot].Taken); // owner only
        }

        return task;
    }

    /// <summary>Owner: removes a queued task from its own deque so it can be inlined; false when it is not there.</summary>
    public bool LocalTryRemove(int slot, Task task)
    {
        if (_deques[slot].LocalFindAndPop(task))
        {
            WorkerCounters.Bump(ref _counters[slot].Taken);
            return true;
        }

        return false;
    }

    /// <summary>Worker at <paramref name="slot"/>: the oldest task of the global queue, or null.</summary>
    public Task? TryDequeueGlobal(int slot)
    {
        ScheduleHook.Yield("global.dequeue");
        if (_global.TryDequeue(out Task? task))
        {
            WorkerCounters.Bump(ref _counters[slot].Taken);
            return task;
        }

        return null;
    }

    /// <summary>
    /// Thief at <paramref name="slot"/>: one sweep over the other slots. Scope All: every other slot from a random
    /// start. Scope CacheGroupFirst: the slots of its own stealing group from a random start, then (only if that found
    /// nothing) the other groups' slots from a random start. Sets <paramref name="missed"/> when a victim was busy
    /// (work may still be there); <paramref name="remote"/> tells whether the victim was in another group.
    /// </summary>
    /// <remarks>
    /// Restricted stealing never skips a victim: the two sweeps together visit every other slot once, so a thief that
    /// finds nothing has seen every deque empty (or busy: missed), exactly as with All; the no-lost-wake-up and exit
    /// protocols (which rely on a failed sweep + HasVisibleWork) are unchanged.
    /// </remarks>
    public Task? TrySteal(int slot, ref uint random, ref bool missed, out bool remote)
    {
        remote = false;
        ScheduleHook.Yield("steal");
        int n = _activeSlots;
        if (n == 1)
        {
            return null;
        }

        // xorshift32: per-worker state, no shared writes.
        uint x = random;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        random = x;
        StealGroups? groups = _stealGroups;
        int workers = _pool.WorkerCount;
        if (groups is not null && _scope == StealingScope.CacheGroupFirst && slot < workers)
        {
            Task? task = SweepList(slot, groups.Local[slot], x, ref missed);
            if (task is not null)
            {
                return task;
            }

            task = SweepList(slot, groups.Remote[slot], x >> 16, ref missed);
            remote = task is not null;

            // Then the compensating slots in use (no group): a failed sweep still means every other slot was visited.
            for (int extra = workers; task is null && extra < n; extra++)
            {
                task = _deques[extra].TrySteal(ref missed);
                if (task is not null)
                {
                    WorkerCounters.Bump(ref _counters[slot].Taken);
                }
            }

            return task;
        }

        Task? stolen = SweepAll(slot, (int)(x % (uint)n), ref missed, out int victim);
        // Compensating slots (at or above WorkerCount) have no group, as in the sweep above: a steal by or from one is
        // not remote. Required: StealGroups covers only the worker slots, so indexing it with a compensating slot throws
        // (in the worker loop, which kills the process: a throttled pool compensates, then steals).
        remote = stolen is not null && groups is not null && slot < workers && victim < workers && !groups.SameGroup(slot, victim);
        return stolen;
    }

    // Every other slot once, from start on (wrapping); the victim robbed, if any.
    private Task? SweepAll(int slot, int start, ref bool missed, out int victim)
    {
        int n = _activeSlots;
        if (start >= n)
        {
            start = 0;
        }

        for (int k = 0; k < n; k++)
        {
            victim = start + k;
            if (victim >= n)
            {
                victim -= n;
            }

            if (victim == slot)
            {
                continue;
            }

            Task? task = _deques[victim].TrySteal(ref missed);
            if (task is not null)
            {
                WorkerCounters.Bump(ref _counters[slot].Taken);
                return task;
            }
        }

        victim = -1;
        return null;
    }

    private Task? SweepList(int slot, int[] victims, uint random, ref bool missed)
    {
        int n = victims.Length;
        if (n == 0)
        {
            return null;
        }

        int start = (int)(random % (uint)n);
        for (int k = 0; k < n; k++)
        {
            int i = start + k;
            if (i >= n)
            {
                i -= n;
            }

            Task? task = _deques[victims[i]].TrySteal(ref missed);
            if (task is not null)
            {
                WorkerCounters.Bump(ref _counters[slot].Taken);
                return task;
            }
        }

        return null;
    }

    /// <summary>Any thread: true when some queue of the set holds a task (racy; used before parking and exiting).</summary>
    public bool HasVisibleWork()
    {
        ScheduleHook.Yield("visible-work.global");
        if (!_global.IsEmpty)
        {
            return true;
        }

        ScheduleHook.Yield("visible-work.deques");
        int active = _activeSlots;
        for (int i = 0; i < active; i++)
        {
            if (_deques[i].CanSteal)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// True when a worker of a shutting-down pool may stop serving this set: closed and idle, i.e. nothing queued,
    /// nothing running (a running task may still queue a child and wait for it) and no outside producer between its
    /// acceptance check and its enqueue (IsIdle counts those).
    /// </summary>
    public bool IsQuiescentForExit()
    {
        ScheduleHook.Yield("exit.idle");
        return IsIdle();
    }

    /// <summary>Stops accepting tasks from outside threads (the set's workers may still queue children).</summary>
    public void CloseExternal()
    {
        ScheduleHook.Yield("close");
        _acceptingExternal = false;

        // Full fence: pairs with EnqueueExternal's increment; see IsQuiescentForExit.
        Interlocked.MemoryBarrier();
    }

    /// <summary>
    /// Worker: starts serving slot <paramref name="slot"/> at <paramref name="now"/>, counted as busy. Required: the
    /// worker's first look for work (Worker.FindWorkSlow's global-queue fast path) takes a task without a transition,
    /// counted in the state it finds, and the idle path starts with a transition to idle; entering as idle charged a task
    /// taken that way (a program's first task, queued from outside) to idle time for as long as it ran (issue 20: a batch
    /// loop of 4 s reported as idle).
    /// </summary>
    public void Enter(int slot, long now) => _counters[slot].Transition(WorkerCounters.StateBusy, now);

    /// <summary>
    /// Worker: stops serving slot <paramref name="slot"/>. Its deque's tasks go to the global queue (oldest first),
    /// where the set's other workers, or its next one, find them.
    /// </summary>
    public void Leave(int slot, long now)
    {
        // Net counters are unchanged: the tasks stay queued in this set. The global queue is enqueued by the thread
        // that owns the deque, so nothing can be popped from the deque meanwhile.
        int moved = _deques[slot].LocalDrainTo(_global.Enqueue);
        ScheduleHook.Yield("leave.drained");
        _counters[slot].Transition(WorkerCounters.StateNotServing, now);
        if (moved > 0)
        {
            SignalWork();
        }
    }

    /// <summary>Worker: runs a task and counts it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Execute(Task task, int slot)
    {
        ref WorkerCounters counters = ref _counters[slot];
        ScheduleHook.Yield("execute");
        if (_executor.ExecuteTask(task))
        {
            WorkerCounters.Bump(ref counters.TasksExecuted); // owner only
        }

        // Release: the task's own pushes (children) are visible to a reader that sees this count (IsIdle).
        Volatile.Write(ref counters.Finished, counters.Finished + 1);
    }

    /// <summary>Inlining on a worker serving this set; false anywhere else (never inline on an outside thread).</summary>
    public bool TryExecuteInline(Task task, bool taskWasPreviouslyQueued)
    {
        ArgumentNullException.ThrowIfNull(task);
        Worker? worker = Worker.Current;
        if (worker is null || !ReferenceEquals(worker.Serving, this))
        {
            return false;
        }

        if (taskWasPreviouslyQueued && !LocalTryRemove(worker.Slot, task))
        {
            // Queued elsewhere (the global queue or another worker's deque): leave it for whoever takes it.
            return false;
        }

        bool ran = _executor.ExecuteTask(task);
        ref WorkerCounters counters = ref _counters[worker.Slot];
        if (ran)
        {
            WorkerCounters.Bump(ref counters.TasksExecuted);
        }

        if (taskWasPreviouslyQueued)
        {
            // It was taken from the deque above: it counts as finished like any task the loop runs.
            Volatile.Write(ref counters.Finished, counters.Finished + 1);
        }

        return ran;
    }

    /// <summary>For the debugger: a racy copy of every queued task.</summary>
    public IEnumerable<Task> GetScheduledTasks()
    {
        var tasks = new List<Task>(_global);
        int active = _activeSlots;
        for (int i = 0; i < active; i++)
        {
            tasks.AddRange(_deques[i].ToList());
        }

        return tasks;
    }

    /// <summary>Any thread: a copy of slot <paramref name="slot"/>'s counters at <paramref name="now"/>.</summary>
    public WorkerCounterValues ReadCounters(int slot, long now) => WorkerCounterValues.Read(ref _counters[slot], now);

    [Conditional("DEBUG")]
    internal void AssertOwner(int slot) => Debug.Assert(Worker.Current?.Slot == slot && ReferenceEquals(Worker.Current.Serving, this));
}
