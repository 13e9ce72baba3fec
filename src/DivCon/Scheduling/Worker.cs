// Protocol of a worker thread (owned by a WorkerPool, lent to one queue set at a time).
//
// Roles
//   worker - this thread: serves the queue set it is assigned to, one task at a time.
//   mover  - any thread changing the assignment (WorkerPool.Assign): writes _assigned, then wakes the worker.
//   waker  - a producer that queued work on a set this worker is parked on (WorkerPool.WakeOneFor).
//
// States of _parkState: Running -> Parked (worker, before its re-check) -> Notified (a waker's CAS, then Set) ->
// Running (worker, after waking). Only the waker whose CAS succeeds calls Set, so a park is signalled at most once;
// a stale Set from an earlier cycle only causes a spurious wake-up, after which the worker re-checks and parks again.
//
// Loop: between two tasks the worker reads _assigned (one volatile read). If it changed, it leaves the old set
// (its deque of that set goes to that set's global queue), and enters the new one, whose global queue it then
// reads first (its own deque there is empty). A task is never interrupted: moves take effect only here.
// Finding work: own deque (LIFO) -> global queue (FIFO) -> steal (FIFO end, random first victim) -> spin briefly,
// counted as searching (producers wake nobody while a worker searches: WorkQueueSet.cs header) -> park.
// Consecutive tasks from the own deque take no timestamp; each switch between looking for work and running a task
// takes one (WorkerCounters).
//
// Park (required: no lost wake-up): Reset the event; publish _parkedOn and Parked; stop searching and increment the
// set's parked count; execute a process-wide memory barrier; then re-check the set's queues, the assignment and
// shutdown; block only if all are unchanged. Producers (WorkQueueSet.SignalWork: no fence of their own, see its
// header), movers (Assign: CAS) and shutdown (BeginShutdown: full fence) each publish first, then look at the parked
// state: either they see this worker parked (a producer: and nobody searching or being woken) and wake it, or it
// sees their change. The process-wide barrier costs microseconds,
// paid only when a worker has already spun without finding work, and it lets every push skip a fence.
//
// Shutdown, in order: (1) the pool's owner closes the queue sets to outside producers; (2) BeginShutdown sets
// _shuttingDown and wakes every parked worker; (3) each worker keeps running tasks until its set has no visible work
// and no outside producer in flight (WorkQueueSet.IsQuiescentForExit), then leaves the set and exits; (4) the owner
// joins the threads unless it is itself one of them.
//
// Rejected: one pool-wide semaphore (a wake-up could go to a worker serving another program, and the count cannot
// follow moves); blocking with a timeout and polling (idle workers would cost CPU and wake-up latency would be the
// poll interval).
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace DivCon.Scheduling;

/// <summary>One worker thread of a <see cref="WorkerPool"/>.</summary>
internal sealed class Worker
{
    private const int ParkRunning = 0;
    private const int ParkParked = 1;
    private const int ParkNotified = 2;

    // Spin iterations (SpinWait.SpinOnce, yielding after the first few) before parking.
    private const int SpinLimit = 24;

    [ThreadStatic]
    private static Worker? t_current;

    private readonly WorkerPool _pool;
    private readonly Thread _thread;
    private readonly ManualResetEventSlim _wake = new(initialState: false, spinCount: 1);

    // Written by a mover (WorkerPool.Assign); read by this worker between tasks and in its park re-check.
    private volatile WorkQueueSet? _assigned;

    // Written by this worker around a park; read by wakers looking for a worker parked on their set.
    private volatile WorkQueueSet? _parkedOn;

    // See the header. This worker writes Running/Parked; wakers CAS Parked -> Notified.
    private int _parkState;

    // Written by this worker at each switch; read by snapshots.
    private volatile WorkQueueSet? _servingForReaders;

    public Worker(WorkerPool pool, int slot, int? processorId, string threadName)
    {
        _pool = pool;
        Slot = slot;
        ProcessorId = processorId;
        _thread = new Thread(Run) { IsBackground = true, Name = threadName };
    }

    /// <summary>The worker running on the calling thread, or null on any other thread.</summary>
    public static Worker? Current
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => t_current;
    }

    public int Slot { get; }

    public int? ProcessorId { get; }

    public WorkerPool Pool => _pool;

    public Thread Thread => _thread;

    /// <summary>The queue set this worker serves now. Written and read only by this worker's own thread.</summary>
    public WorkQueueSet? Serving { get; private set; }

    /// <summary>
    /// Any thread: the set this worker serves, as last published at a switch (it lags <see cref="Assigned"/> until
    /// the worker reaches a task boundary). For snapshots and tests, not for decisions.
    /// </summary>
    public WorkQueueSet? ServingForReaders => _servingForReaders;

    /// <summary>The queue set this worker is assigned to (it switches to it at its next task boundary).</summary>
    public WorkQueueSet? Assigned => _assigned;

    /// <summary>Why pinning failed, if it did; written by the worker before it reports start-up.</summary>
    public Exception? PinError { get; private set; }

    public void Start() => _thread.Start();

    /// <summary>Before start only: the initial assignment.</summary>
    public void SetInitialAssignment(WorkQueueSet? set) => _assigned = set;

    /// <summary>Mover: assigns the worker to <paramref name="set"/>; it switches at its next task boundary.</summary>
    public void Assign(WorkQueueSet? set)
    {
        _assigned = set;

        // TryWake's CAS is a full fence (required: no lost wake-up): pairs with Park's increment before its re-check
        // of _assigned. Either we see Parked and wake the worker, or it sees the new assignment.
        TryWake();
    }

    /// <summary>
    /// This worker (idle lending): moves itself from <paramref name="from"/> to <paramref name="to"/> unless a mover
    /// has changed its assignment meanwhile (CAS: the mover's decision always wins).
    /// </summary>
    public bool TrySelfAssign(WorkQueueSet from, WorkQueueSet to)
        => ReferenceEquals(Interlocked.CompareExchange(ref _assigned, to, from), from);

    /// <summary>Any thread: the set this worker is parked on, or null when it is not parked on one.</summary>
    public WorkQueueSet? ParkedOn => _parkedOn;

    /// <summary>Any thread: wakes the worker if it is parked; true if this call did.</summary>
    public bool TryWake()
    {
        if (Interlocked.CompareExchange(ref _parkState, ParkNotified, ParkParked) == ParkParked)
        {
            _wake.Set();
            return true;
        }

        return false;
    }

    // Padding kept alive around this thread's thread-static storage (see SeparateThreadStatics).
    private object? _threadStaticGuardBefore;
    private object? _threadStaticGuardAfter;

    /// <summary>
    /// Keeps this worker's thread-static storage off other workers' cache lines. TPL writes its thread-static "current
    /// task" twice per task, on storage the runtime allocates on the GC heap the first time a thread touches it; a
    /// compacting GC packs surviving objects together, and two workers' storages ending up side by side made both
    /// workers' every task pay for a shared cache line (the spawn tree ran about 2× slower, per process, pinned or not;
    /// docs/measurements/scheduling.md). So: a long-lived guard, then the storage (created by running one empty task
    /// inline), then another guard, all from this thread's own allocation context, so they stay in this order.
    /// </summary>
    private void SeparateThreadStatics()
    {
        _threadStaticGuardBefore = new byte[2 * WorkerCounters.PaddingSize];
        new Task(static () => { }).RunSynchronously(TaskScheduler.Default);
        _threadStaticGuardAfter = new byte[2 * WorkerCounters.PaddingSize];
    }

    private void Run()
    {
        t_current = this;
        if (ProcessorId is int processor && _pool.Pinner is { } pin)
        {
            try
            {
                // First statement of the thread's work: the runtime resets a new thread's affinity at start.
                pin(processor);
            }
            catch (Exception ex) when (ex is PlatformNotSupportedException or InvalidOperationException or ArgumentException or System.ComponentModel.Win32Exception)
            {
                PinError = ex;
            }
        }

        // After pinning (so the thread's first allocations are made where it will run), before any task of the pool.
        SeparateThreadStatics();
        WorkQueueSet? serving = null;
        SwitchTo(ref serving, _assigned, Stopwatch.GetTimestamp());
        _pool.ReportStarted();

        uint random = (uint)(Slot + 1) * 0x9E3779B9u;
        if (random == 0)
        {
            random = 1;
        }

        while (ServeSome(ref serving, ref random))
        {
        }

        SwitchTo(ref serving, null, Stopwatch.GetTimestamp());
        _pool.ReportExited();
    }

    /// <summary>
    /// One step of the loop: switch sets if reassigned, find one task (own deque, else the idle path), then run it and
    /// the tasks of the own deque after it, until the deque is empty or a move is pending. False when the worker must
    /// exit.
    /// </summary>
    /// <remarks>
    /// A separate, non-inlined frame per busy stretch, for two reasons. (1) No stack slot keeps a finished task
    /// reachable while the worker idles: the idle path (FindWorkSlow, parking) runs only at the top of this method,
    /// and the loop leaves only after <c>task</c> was overwritten by a null pop, so an unobserved faulted task is
    /// collectable and its exception reported. (2) Code quality: the method is entered once per busy stretch, so the
    /// JIT tiers it up with profile data like any hot method, instead of compiling the worker's endless loop once by
    /// on-stack replacement.
    /// </remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool ServeSome(ref WorkQueueSet? serving, ref uint random)
    {
        // Volatile read: pairs with Assign's write; a move takes effect here, between tasks.
        WorkQueueSet? assigned = _assigned;
        if (!ReferenceEquals(assigned, serving))
        {
            SwitchTo(ref serving, assigned, Stopwatch.GetTimestamp());
        }

        if (serving is null)
        {
            if (_pool.IsShuttingDown)
            {
                return false;
            }

            Park(null);
            return true;
        }

        int slot = Slot;
        Task? task = serving.LocalPop(slot);
        if (task is null)
        {
            task = FindWorkSlow(serving, ref random);
            if (task is null)
            {
                return !(_pool.IsShuttingDown && ReferenceEquals(_assigned, serving) && serving.IsQuiescentForExit());
            }
        }

        do
        {
            serving.Execute(task, slot);

            // A move takes effect at this task boundary (volatile read, as above): the caller switches sets.
            if (!ReferenceEquals(_assigned, serving))
            {
                return true;
            }

            task = serving.LocalPop(slot);
        }
        while (task is not null);

        return true;
    }

    private void SwitchTo(ref WorkQueueSet? serving, WorkQueueSet? next, long now)
    {
        if (ReferenceEquals(serving, next))
        {
            return;
        }

        // Leave first: the old set's tasks in our deque go back to its global queue before we serve anything else,
        // so they are never stranded on a deque whose owner serves another program.
        serving?.Leave(Slot, now);
        serving = next;
        Serving = next;
        _servingForReaders = next;
        next?.Enter(Slot, now);
        _pool.OnSwitched(this, next, now);
    }

    /// <summary>The idle path: global queue, steals, spinning, parking. Null when reassigned or free to exit.</summary>
    /// <remarks>
    /// Searching (WorkQueueSet.cs header): the worker counts itself as searching from its first spin until it leaves
    /// this method or parks, and again from the moment it leaves Park. Every exit from this method while searching
    /// goes through <see cref="WorkQueueSet.StopSearching"/> (obligation 2 of the header); a first attempt that
    /// succeeds without spinning never touches the count.
    /// </remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private Task? FindWorkSlow(WorkQueueSet serving, ref uint random)
    {
        // First the global queue, still counted as busy (like the pops between local tasks): a worker fed from the
        // global queue (tasks queued from outside) then takes no timestamp per task. A timestamp costs 25-45 ns on
        // this kind of VM, as much as the rest of the scheduling path.
        if (ReferenceEquals(_assigned, serving) && serving.TryDequeueGlobal(Slot) is { } queued)
        {
            return FoundWork(serving, searching: false, queued);
        }

        ref WorkerCounters counters = ref serving.CountersOf(Slot);
        long now = Stopwatch.GetTimestamp();
        counters.Transition(WorkerCounters.StateIdle, now);
        var spinner = default(SpinWait);
        int spins = 0;
        bool searching = false;
        while (true)
        {
            // A move takes effect before the next task is taken: a worker reassigned while it was looking for work
            // (or parked) must not take one more task of the program it no longer serves.
            if (!ReferenceEquals(_assigned, serving))
            {
                StopSearching(serving, searching);
                return null; // the caller switches sets at this task boundary
            }

            Task? task = serving.TryDequeueGlobal(Slot);
            if (task is not null)
            {
                counters.Transition(WorkerCounters.StateBusy, Stopwatch.GetTimestamp());
                return FoundWork(serving, searching, task);
            }

            bool missed = false;
            long stealStart = Stopwatch.GetTimestamp();
            task = serving.TrySteal(Slot, ref random, ref missed, out bool remote);
            if (task is not null)
            {
                now = Stopwatch.GetTimestamp();
                counters.Steals++;
                if (remote)
                {
                    counters.RemoteSteals++;
                }
                else
                {
                    counters.LocalSteals++;
                }

                counters.StealTicks += now - stealStart;
                counters.Transition(WorkerCounters.StateBusy, now);
                return FoundWork(serving, searching, task);
            }

            if (_pool.IsShuttingDown)
            {
                if (serving.IsQuiescentForExit())
                {
                    StopSearching(serving, searching);
                    return null;
                }

                StartSearching(serving, ref searching);
                spinner.SpinOnce(sleep1Threshold: -1);
                continue; // shutting down: never block while work may remain
            }

            if (missed || spins < SpinLimit)
            {
                StartSearching(serving, ref searching);
                spins++;
                spinner.SpinOnce(sleep1Threshold: -1);
                continue;
            }

            WorkQueueSet? lent = _pool.TryFindIdleWork(this, serving);
            if (lent is not null)
            {
                StopSearching(serving, searching);
                return null; // lending (MultiProgramScheduler option): the caller switches
            }

            // Park ends our search before its barrier and starts a new one when it returns (woken or not).
            Park(serving, searching);
            searching = true;
            spins = 0;
            spinner.Reset();
        }
    }

    private static void StartSearching(WorkQueueSet serving, ref bool searching)
    {
        if (!searching)
        {
            serving.StartSearching();
            searching = true;
        }
    }

    private static void StopSearching(WorkQueueSet serving, bool searching)
    {
        if (searching)
        {
            serving.StopSearching();
        }
    }

    // Found a task. A searcher hands on through StopSearching (obligation 2). A worker that found it at once passes
    // the wake-up on when a worker is parked, none is searching or being woken, and more work is visible: ramp-up
    // only, not needed for correctness (one producer wake-up may have stood for several queued tasks).
    private static Task FoundWork(WorkQueueSet serving, bool searching, Task task)
    {
        StopSearching(serving, searching);
        if (!searching && serving.HasParked && !serving.HasSearcherOrPendingWake && serving.HasVisibleWork())
        {
            serving.WakeIfParked();
        }

        return task;
    }

    private void Park(WorkQueueSet? set, bool searching = false)
    {
        _wake.Reset();
        _parkedOn = set;
        Volatile.Write(ref _parkState, ParkParked);

        // Required: no lost wake-up. The increment publishes us to producers (and, for a searcher, the decrement of the
        // searching count stops them relying on us); the process-wide barrier drains every other processor's store
        // buffer, so a producer that has not seen the change has its task visible to the re-check below (asymmetric
        // pair with WorkQueueSet.SignalWork, which has no fence). Assign's CAS and BeginShutdown's barrier are full
        // fences on their side, so the same barrier also pairs with them.
        set?.OnParking(searching);
        bool lender = set is not null && _pool.IsLending;
        if (lender)
        {
            _pool.AddParkedLender(); // idle lending: producers of other programs may wake us (WorkerPool.HasParkedLender)
        }

        Interlocked.MemoryBarrierProcessWide();

        bool block = ReferenceEquals(_assigned, set)
            && !_pool.IsShuttingDown
            && (set is null || !set.HasVisibleWork())
            && !_pool.HasIdleWorkFor(this, set);
        if (block)
        {
            _wake.Wait();
        }

        Interlocked.Exchange(ref _parkState, ParkRunning);

        // Searching again, then the wake token released (WorkQueueSet.cs header, obligation 3).
        set?.OnUnparked();
        if (lender)
        {
            _pool.RemoveParkedLender();
        }

        _parkedOn = null;
    }
}
