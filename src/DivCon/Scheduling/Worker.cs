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
// Finding work: own deque (LIFO) -> global queue (FIFO) -> steal (FIFO end, random first victim) -> spin briefly ->
// park. Consecutive tasks from the own deque take no timestamp; each switch between looking for work and running
// a task takes one (WorkerCounters).
//
// Park (required: no lost wake-up): Reset the event; publish _parkedOn and Parked; increment the set's parked
// count; execute a process-wide memory barrier; then re-check the set's queues, the assignment and shutdown; block
// only if all are unchanged. Producers (WorkQueueSet.SignalWork: no fence of their own, see its header), movers
// (Assign: CAS) and shutdown (BeginShutdown: full fence) each publish first, then look at the parked state: either
// they see this worker parked and wake it, or it sees their change. The process-wide barrier costs microseconds,
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

        WorkQueueSet? serving = null;
        SwitchTo(ref serving, _assigned, Stopwatch.GetTimestamp());
        _pool.ReportStarted();

        uint random = (uint)(Slot + 1) * 0x9E3779B9u;
        if (random == 0)
        {
            random = 1;
        }

        while (ServeOne(ref serving, ref random))
        {
        }

        SwitchTo(ref serving, null, Stopwatch.GetTimestamp());
        _pool.ReportExited();
    }

    /// <summary>
    /// One step of the loop: switch sets if reassigned, then run one task. False when the worker must exit. A
    /// separate frame per task, so that no stack slot keeps a finished task reachable while the worker idles (an
    /// unobserved faulted task must be collectable for its exception to be reported).
    /// </summary>
    private bool ServeOne(ref WorkQueueSet? serving, ref uint random)
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

        Task? task = serving.LocalPop(Slot);
        if (task is null)
        {
            task = FindWorkSlow(serving, ref random);
            if (task is null)
            {
                return !(_pool.IsShuttingDown && ReferenceEquals(_assigned, serving) && serving.IsQuiescentForExit());
            }
        }

        serving.Execute(task, Slot);
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
    [MethodImpl(MethodImplOptions.NoInlining)]
    private Task? FindWorkSlow(WorkQueueSet serving, ref uint random)
    {
        ref WorkerCounters counters = ref serving.CountersOf(Slot);
        long now = Stopwatch.GetTimestamp();
        counters.Transition(WorkerCounters.StateIdle, now);
        var spinner = default(SpinWait);
        int spins = 0;
        while (true)
        {
            // A move takes effect before the next task is taken: a worker reassigned while it was looking for work
            // (or parked) must not take one more task of the program it no longer serves.
            if (!ReferenceEquals(_assigned, serving))
            {
                return null; // the caller switches sets at this task boundary
            }

            Task? task = serving.TryDequeueGlobal(Slot);
            if (task is not null)
            {
                counters.Transition(WorkerCounters.StateBusy, Stopwatch.GetTimestamp());
                WakeAnotherIfWorkLeft(serving);
                return task;
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
                WakeAnotherIfWorkLeft(serving);
                return task;
            }

            if (_pool.IsShuttingDown)
            {
                if (serving.IsQuiescentForExit())
                {
                    return null;
                }

                spinner.SpinOnce(sleep1Threshold: -1);
                continue; // shutting down: never block while work may remain
            }

            if (missed || spins < SpinLimit)
            {
                spins++;
                spinner.SpinOnce(sleep1Threshold: -1);
                continue;
            }

            WorkQueueSet? lent = _pool.TryFindIdleWork(this, serving);
            if (lent is not null)
            {
                return null; // lending (MultiProgramScheduler option): the caller switches at this boundary
            }

            Park(serving);
            spins = 0;
            spinner.Reset();
        }
    }

    // Ramp-up only (not needed for correctness): one producer wake-up per task may have woken a single worker while
    // several tasks were queued; the worker that got one passes the wake-up on.
    private void WakeAnotherIfWorkLeft(WorkQueueSet serving)
    {
        if (serving.HasParked && serving.HasVisibleWork())
        {
            _pool.WakeOneFor(serving);
        }
    }

    private void Park(WorkQueueSet? set)
    {
        _wake.Reset();
        _parkedOn = set;
        Volatile.Write(ref _parkState, ParkParked);

        // Required: no lost wake-up. The increment publishes us to producers; the process-wide barrier drains every
        // other processor's store buffer, so a producer that has not seen the increment has its task visible to the
        // re-check below (asymmetric pair with WorkQueueSet.SignalWork, which has no fence). Assign's CAS and
        // BeginShutdown's barrier are full fences on their side, so the same barrier also pairs with them.
        set?.AddParked();
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
        set?.RemoveParked();
        if (lender)
        {
            _pool.RemoveParkedLender();
        }

        _parkedOn = null;
    }
}
