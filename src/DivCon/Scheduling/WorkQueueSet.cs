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
//   With idle lending (a MultiProgramScheduler option) a producer with no parked worker of its own set wakes a worker
//   parked on any set (WorkerPool.HasParkedLender, same asymmetric pairing, no token), so a program whose own workers
//   are busy, or which holds none, can borrow an idle worker of another program (MultiProgramScheduler.cs: the loan
//   ends when the borrower runs dry or at the next repartitioning).
//
// External queuing and shutdown (required: a task accepted is never stranded)
//   An outside producer increments _externalInFlight (full fence), then reads _acceptingExternal; the closer writes
//   _acceptingExternal = false, then (after a fence) workers decide to exit only when no work is visible and
//   _externalInFlight is zero. So an accepted external task is always visible to a worker that could exit.
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

    public WorkQueueSet(WorkerPool pool, ITaskExecutor executor, string name, int dequeInitialCapacity = WorkStealingDeque<Task>.DefaultInitialCapacity, int dequeStartIndex = 0)
    {
        _pool = pool;
        _executor = executor;
        _stealGroups = pool.StealGroups;
        _scope = pool.StealingScope;
        Name = name;
        _deques = new WorkStealingDeque<Task>[pool.WorkerCount];
        for (int i = 0; i < _deques.Length; i++)
        {
            _deques[i] = new WorkStealingDeque<Task>(dequeInitialCapacity, dequeStartIndex);
        }

        _counters = new WorkerCounters[pool.WorkerCount];
    }

    public string Name { get; }

    /// <summary>The owner's object for this set (the MultiProgramScheduler's program handle); set once, before use.</summary>
    public object? Tag { get; set; }

    public int SlotCount => _deques.Length;

    public WorkerPool Pool => _pool;

    public bool IsAcceptingExternal => _acceptingExternal;

    /// <summary>Tasks queued and not yet taken by a worker: O(slots), racy, never negative.</summary>
    public int AvailableTasks
    {
        get
        {
            long sum = Volatile.Read(ref _externalQueued.Value);
            for (int i = 0; i < _counters.Length; i++)
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
        long finished = 0;
        for (int i = 0; i < _counters.Length; i++)
        {
            finished += Volatile.Read(ref _counters[i].Finished); // acquire: pairs with the Volatile.Write in Execute
        }

        // Full fence: pairs with EnqueueExternal's increment of _externalInFlight.
        Interlocked.MemoryBarrier();
        // In flight before queued: a producer increments _externalQueued before it leaves _externalInFlight, so an
        // outside task is counted by at least one of the two reads (twice at worst, which only reads "not idle").
        long pushed = Volatile.Read(ref _externalInFlight.Value);
        pushed += Volatile.Read(ref _externalQueued.Value);
        for (int i = 0; i < _counters.Length; i++)
        {
            pushed += Volatile.Read(ref _counters[i].Pushed);
        }

        return pushed == finished;
    }

    /// <summary>Counters of one slot; written only by the worker serving that slot.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ref WorkerCounters CountersOf(int slot) => ref _counters[slot];

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
            _counters[slot].Pushed++; // owner only
            _deques[slot].LocalPush(task);
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
        try
        {
            if (!_acceptingExternal)
            {
                throw new ObjectDisposedException(Name, $"{Name} no longer accepts tasks: it has been disposed or removed.");
            }

            _global.Enqueue(task);
            Interlocked.Increment(ref _externalQueued.Value);
        }
        finally
        {
            Interlocked.Decrement(ref _externalInFlight.Value);
        }

        SignalWork();
    }

    /// <summary>Producer side of the no-lost-wake-up protocol (see the header).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void SignalWork()
    {
        // No fence here (required ordering, not free): these volatile loads follow the task's volatile publication in
        // program order; the hardware reordering of store and loads is closed by the sleeper's process-wide barrier in
        // Worker.Park (see the header).
        if (Volatile.Read(ref _parked.Value) != 0)
        {
            if (Volatile.Read(ref _searching.Value) == 0 && Volatile.Read(ref _wakePending.Value) == 0)
            {
                WakeSearcher();
            }
        }
        else if (_pool.HasParkedLender)
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
        while (Interlocked.CompareExchange(ref _wakePending.Value, 1, 0) == 0)
        {
            if (_pool.TryWakeParkedOn(this))
            {
                return; // the woken worker releases the token in Worker.Park (OnUnparked)
            }

            // Nobody to wake: every parked worker was being woken by someone else, or none is parked any more. A
            // producer may have skipped its wake-up because it read our token: release it, let every processor fence
            // (the producer's task is then visible here), and look again.
            Volatile.Write(ref _wakePending.Value, 0);
            Interlocked.MemoryBarrierProcessWide();
            if (Volatile.Read(ref _parked.Value) == 0 || Volatile.Read(ref _searching.Value) != 0 || !HasVisibleWork())
            {
                return;
            }
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
    public void StartSearching() => Interlocked.Increment(ref _searching.Value);

    /// <summary>
    /// Worker: stops searching other than by parking (it found a task, was moved, exits). The last searcher wakes a
    /// parked worker, if any (header, obligation 2).
    /// </summary>
    public void StopSearching()
    {
        // Interlocked: a full fence, so the parked count read next is not older than the decrement.
        if (Interlocked.Decrement(ref _searching.Value) == 0 && Volatile.Read(ref _parked.Value) != 0)
        {
            WakeSearcher();
        }
    }

    /// <summary>
    /// Sleeper (Worker.Park, before its process-wide barrier): counted as parked; a searcher stops searching in the
    /// same step.
    /// </summary>
    public void OnParking(bool searching)
    {
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
        Interlocked.Decrement(ref _parked.Value);
        Interlocked.Increment(ref _searching.Value);
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
            _counters[slot].Taken++; // owner only
        }

        return task;
    }

    /// <summary>Owner: removes a queued task from its own deque so it can be inlined; false when it is not there.</summary>
    public bool LocalTryRemove(int slot, Task task)
    {
        if (_deques[slot].LocalFindAndPop(task))
        {
            _counters[slot].Taken++;
            return true;
        }

        return false;
    }

    /// <summary>Worker at <paramref name="slot"/>: the oldest task of the global queue, or null.</summary>
    public Task? TryDequeueGlobal(int slot)
    {
        if (_global.TryDequeue(out Task? task))
        {
            _counters[slot].Taken++;
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
        int n = _deques.Length;
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
        if (groups is not null && _scope == StealingScope.CacheGroupFirst)
        {
            Task? task = SweepList(slot, groups.Local[slot], x, ref missed);
            if (task is not null)
            {
                return task;
            }

            task = SweepList(slot, groups.Remote[slot], x >> 16, ref missed);
            remote = task is not null;
            return task;
        }

        Task? stolen = SweepAll(slot, (int)(x % (uint)n), ref missed, out int victim);
        remote = stolen is not null && groups is not null && !groups.SameGroup(slot, victim);
        return stolen;
    }

    // Every other slot once, from start on (wrapping); the victim robbed, if any.
    private Task? SweepAll(int slot, int start, ref bool missed, out int victim)
    {
        int n = _deques.Length;
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
                _counters[slot].Taken++;
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
                _counters[slot].Taken++;
                return task;
            }
        }

        return null;
    }

    /// <summary>Any thread: true when some queue of the set holds a task (racy; used before parking and exiting).</summary>
    public bool HasVisibleWork()
    {
        if (!_global.IsEmpty)
        {
            return true;
        }

        foreach (WorkStealingDeque<Task> deque in _deques)
        {
            if (deque.CanSteal)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// True when a worker of a shutting-down pool may stop serving this set: nothing queued and no outside producer
    /// between its acceptance check and its enqueue.
    /// </summary>
    public bool IsQuiescentForExit()
    {
        // Full fence: pairs with EnqueueExternal's increment of _externalInFlight (see the header).
        Interlocked.MemoryBarrier();
        return Volatile.Read(ref _externalInFlight.Value) == 0 && !HasVisibleWork();
    }

    /// <summary>Stops accepting tasks from outside threads (the set's workers may still queue children).</summary>
    public void CloseExternal()
    {
        _acceptingExternal = false;

        // Full fence: pairs with EnqueueExternal's increment; see IsQuiescentForExit.
        Interlocked.MemoryBarrier();
    }

    /// <summary>Worker: starts serving slot <paramref name="slot"/> at <paramref name="now"/>.</summary>
    public void Enter(int slot, long now) => _counters[slot].Transition(WorkerCounters.StateIdle, now);

    /// <summary>
    /// Worker: stops serving slot <paramref name="slot"/>. Its deque's tasks go to the global queue (oldest first),
    /// where the set's other workers, or its next one, find them.
    /// </summary>
    public void Leave(int slot, long now)
    {
        // Net counters are unchanged: the tasks stay queued in this set. The global queue is enqueued by the thread
        // that owns the deque, so nothing can be popped from the deque meanwhile.
        int moved = _deques[slot].LocalDrainTo(_global.Enqueue);
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
        if (_executor.ExecuteTask(task))
        {
            counters.TasksExecuted++; // owner only
        }

        // Release: the task's own pushes (children) are visible to a reader that sees this count (IsIdle).
        Volatile.Write(ref counters.Finished, counters.Finished + 1);
    }

    /// <summary>Inlining on a worker serving this set; false anywhere else (never inline on an outside thread).</summary>
    public bool TryExecuteInline(Task task, bool taskWasPreviouslyQueued)
    {
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
            counters.TasksExecuted++;
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
        foreach (WorkStealingDeque<Task> deque in _deques)
        {
            tasks.AddRange(deque.ToList());
        }

        return tasks;
    }

    /// <summary>Any thread: a copy of slot <paramref name="slot"/>'s counters at <paramref name="now"/>.</summary>
    public WorkerCounterValues ReadCounters(int slot, long now) => WorkerCounterValues.Read(ref _counters[slot], now);

    [Conditional("DEBUG")]
    internal void AssertOwner(int slot) => Debug.Assert(Worker.Current?.Slot == slot && ReferenceEquals(Worker.Current.Serving, this));
}
