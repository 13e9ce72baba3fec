// Protocol of a worker thread (owned by a WorkerPool, lent to one queue set at a time).
//
// Roles
//   worker - this thread: serves the queue set it is assigned to, one task at a time.
//   mover  - any thread changing the assignment (the MultiProgramScheduler's mover, Mover.cs: Assign, or a CAS that
//            wins over the worker's own): writes _assignment, then wakes the worker.
//   waker  - a producer that queued work on a set this worker is parked on (WorkerPool.WakeOneFor).
//   lender - this worker, when the pool has an owner (IPoolOwner, the MultiProgramScheduler's Lender.cs): with nothing
//            to do it asks the owner where to go and moves itself by a CAS on _assignment from the set it serves (a loan
//            or a return); lent, it asks at each task boundary whether its home wants it back (recall: one read of a
//            worker-owned flag while not lent, so the standalone scheduler pays nothing).
//
// The assignment (_assignment) is an immutable WorkerAssignment, a new object for every change (and for every decision
// the mover applies to the worker, even one that keeps its set): the reference is the token of a self-move's CAS
// (required: a move by the mover always wins over a self-move). The worker reads the token before it reads the mover's
// snapshot (WorkerPool.TryFindIdleWork, TryRecall), and its CAS expects that token: it fails if any assignment was
// written since, so a self-move decided on a stale snapshot cannot succeed after the mover sent the worker away and back
// (ABA on a CAS of the set alone: MultiProgramSchedulerTests' chaos run saw a program with fewer workers than its
// allocation; SelfMoveExplorationTests replays it). Costs: one dependent load per task boundary (the set behind the
// token) and one allocation per move or self-move attempt and per worker per published decision, never per task.
//
// The park word (_parkWord) holds a state and the number of the park episode (epoch): Running -> Parked (worker,
// before its re-check, with a new epoch) -> Notified (a waker's CAS on that same word, then Set) -> Running (worker,
// after waking, same epoch). Only the waker whose CAS succeeds calls Set, so a park is signalled at most once; a stale
// Set from an earlier cycle only causes a spurious wake-up, after which the worker re-checks and parks again.
// Waking a worker parked on a given set (required: no lost wake-up, issue 14 defect 1): the waker reads the word, then
// _parkedOn, then CASes the word it read (TryWakeIfParkedOn). The worker writes _parkedOn only outside an episode
// (before publishing Parked, after writing Running), and an epoch never repeats, so a successful CAS proves the
// worker is still in the episode whose _parkedOn the waker inspected: it leaves Park on that set, where WorkQueueSet's
// wake token is released. Without the epoch a waker could read a stale _parkedOn, and its CAS could then notify a
// later episode on another set: the set's token stayed taken and its tasks never ran (ProtocolExplorationTests'
// With_the_park_epoch_switched_off_the_explorer_finds_the_lost_wake_up replays that schedule, seed 1755).
//
// Loop: between two tasks the worker reads _assignment (one volatile read, then the set in it). If the set changed, it
// leaves the old set (its deque of that set goes to that set's global queue), and enters the new one, whose global
// queue it then reads first (its own deque there is empty). A task is never interrupted: moves take effect only here.
// Finding work: own deque (LIFO) -> global queue (FIFO) -> steal (FIFO end, random first victim) -> spin briefly,
// counted as searching (producers wake nobody while a worker searches: WorkQueueSet.cs header) -> park.
// Fairness (required: a task queued from outside always runs): every GlobalQueueInterval tasks taken from its own
// deque, a worker takes the global queue's oldest task first, as Go's scheduler does every 61 ticks; otherwise a task
// that keeps queuing a successor would starve the global queue for ever.
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
// _shuttingDown and wakes every parked worker; (3) each worker keeps running tasks until its set is closed and idle:
// nothing queued, nothing running, no outside producer in flight (WorkQueueSet.IsQuiescentForExit; "nothing queued"
// alone let a thief exit while a running parent was about to queue the child it waits for, issue 14 defect 2);
// meanwhile a worker with nothing to take polls (spin, then 1 ms sleeps) instead of parking; (4) the owner joins the
// threads unless it is itself one of them.
//
// Compensating workers (BlockingMonitor.cs): a worker created while every worker of a set is stuck in a task with
// tasks queued. It serves that set only, never parks (with nothing to find it exits), is never lent or moved, and
// retires at its next task boundary once the worker it stands in for returns from its task (_replacedBy: the returning
// worker reassigns it to no set). A user interrupting a worker thread (Thread.Interrupt) reaches it only in its own
// blocking calls: parking and spinning ignore ThreadInterruptedException (issue 14 defect 6).
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
    /// <summary>Tasks taken from the own deque between two looks at the global queue (Go's scheduler: 61).</summary>
    internal const int GlobalQueueInterval = 61;

    private const long ParkRunning = 0;
    private const long ParkParked = 1;
    private const long ParkNotified = 2;
    private const long ParkStateMask = 3;
    private const int EpochShift = 2;

    // Spin iterations (SpinWait.SpinOnce, yielding after the first few) before parking.
    private const int SpinLimit = 24;

#if DEBUG
    /// <summary>
    /// Tests only: wake a worker parked on a set the way the code did before the park epoch (read _parkedOn, then CAS
    /// any Parked word), so that the explorer can show the lost wake-up it caused. Never set outside the explorer test.
    /// </summary>
    internal static bool s_wakeWithoutEpochForTests;

    /// <summary>Tests only (the explorer): spin iterations before parking, instead of SpinLimit; 0 keeps SpinLimit.</summary>
    internal static int s_spinLimitForTests;

    /// <summary>
    /// Tests only: a deliberately broken recall (a lent worker never looks at its home at a task boundary), so that the
    /// explorer can show it finds the starvation that causes. Never set outside the explorer test.
    /// </summary>
    internal static bool s_recallOffForTests;

    /// <summary>
    /// Tests only: a self-move's CAS succeeds whenever the set is still the one it expects, whatever replaced the
    /// assignment meanwhile (the code before the token: WorkerAssignment), so that the explorer can show the ABA it
    /// allowed. Never set outside the explorer test.
    /// </summary>
    internal static bool s_casOnTheSetForTests;
#endif

    [ThreadStatic]
    private static Worker? t_current;

    private readonly WorkerPool _pool;
    private readonly Thread _thread;
    private readonly ManualResetEventSlim _wake = new(initialState: false, spinCount: 1);

    // Written by a mover (Assign, or its CAS) and by this worker's own CAS (a loan, a return, a recall); read by this
    // worker between tasks and in its park re-check, by snapshots. Never null; a new object per write (see the header).
    private volatile WorkerAssignment _assignment = new(null, 0);

    // Written by this worker around a park; read by wakers looking for a worker parked on their set.
    private volatile WorkQueueSet? _parkedOn;

    // (epoch << EpochShift) | state, see the header. This worker writes Running/Parked (and the epoch); wakers CAS
    // Parked -> Notified keeping the epoch.
    private long _parkWord;

    // Written by the blocking monitor (a compensating worker now stands in for this one while it is stuck in a task) and
    // cleared by whoever ends that (this worker when it returns, the compensating worker when it exits); read by this
    // worker after each task.
    private Worker? _replacedBy;

    // Compensating workers only: the worker this one stands in for.
    private Worker? _replacing;

    // Written by this worker at each switch; read by snapshots.
    private volatile WorkQueueSet? _servingForReaders;

    // This worker only: true from its own loan until a self-move home or until the owner says it is at home again (the
    // mover may have moved it meanwhile). While false, a task boundary costs nothing more than before lending existed.
    private bool _away;

    public Worker(WorkerPool pool, int slot, int? processorId, string threadName, bool compensating = false)
    {
        _pool = pool;
        Slot = slot;
        ProcessorId = processorId;
        IsCompensating = compensating;
        _thread = new Thread(Run) { IsBackground = true, Name = threadName };
    }

    /// <summary>True for a temporary worker standing in for a blocked one (see the header).</summary>
    public bool IsCompensating { get; }

    /// <summary>The compensating worker standing in for this one, if any (blocking monitor and tests).</summary>
    public Worker? ReplacedBy => Volatile.Read(ref _replacedBy);

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
    public WorkQueueSet? Assigned => _assignment.Set;

    /// <summary>
    /// Any thread, one volatile read: the assignment as a token for <see cref="TryReplaceAssignment"/> (see the header).
    /// A self-move reads it before the snapshot it decides on.
    /// </summary>
    public WorkerAssignment Assignment => _assignment;

    /// <summary>When the assignment last changed (<see cref="Stopwatch.GetTimestamp"/> ticks; 0 before any move). For snapshots.</summary>
    public long AssignedAt => _assignment.AssignedAt;

    /// <summary>
    /// On this worker's own thread, inside a task: true when the worker is asked to leave the set it serves at its next
    /// task boundary: a mover changed its assignment (a move, a recall by CAS, a compensating worker's retirement), or
    /// it is lent and its home wants it back (a recall this worker makes itself at the boundary). Cooperative loops
    /// (ChunkedLoops) read it between chunks and end their task, so that the move happens within one chunk.
    /// </summary>
    /// <remarks>
    /// One volatile read of <c>_assignment</c> (pairs with Assign's write and the movers' CAS: a move published before the
    /// read is seen; one published after it is seen at the next poll) plus, only while lent, the recall check's reads of
    /// the snapshot and the home's demand flag (Lender.FindRecall). Never true on a standalone scheduler's workers, whose
    /// assignment never changes. A false answer racing a move costs one more chunk, never correctness: the worker still
    /// moves at the boundary.
    /// </remarks>
    internal bool IsMoveRequested
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            WorkQueueSet? serving = Serving;
            return !ReferenceEquals(_assignment.Set, serving) || (_away && serving is not null && _pool.IsRecallWanted(this, serving));
        }
    }

    /// <summary>Why pinning failed, if it did; written by the worker before it reports start-up.</summary>
    public Exception? PinError { get; private set; }

    public void Start()
    {
        ScheduleHook.Starting(_thread);
        _thread.Start();
    }

    /// <summary>Blocking monitor: a compensating worker now stands in for this (stuck) one; false if one already does.</summary>
    internal bool TrySetReplacement(Worker compensating)
    {
        // CAS: only one compensating worker per stuck worker; pairs with the clearing CASes (ReturnFromStall, Retire).
        if (Interlocked.CompareExchange(ref _replacedBy, compensating, null) is not null)
        {
            return false;
        }

        compensating._replacing = this;
        return true;
    }

    /// <summary>Before start only: the initial assignment.</summary>
    public void SetInitialAssignment(WorkQueueSet? set)
    {
        _assignment = new WorkerAssignment(set, 0);
        if (IsCompensating)
        {
            CompensatingSet = set;
        }
    }

    /// <summary>Compensating workers: the set it was started for (it serves no other).</summary>
    public WorkQueueSet? CompensatingSet { get; private set; }

    /// <summary>Mover: assigns the worker to <paramref name="set"/>; it switches at its next task boundary.</summary>
    public void Assign(WorkQueueSet? set)
    {
        ScheduleHook.Yield("assign.write");
        WorkerAssignment current = _assignment;

        // A new token in any case (a self-move that read the old one fails); a move's age starts now.
        _assignment = new WorkerAssignment(set, ReferenceEquals(current.Set, set) ? current.AssignedAt : Stopwatch.GetTimestamp());

        // TryWake's CAS is a full fence (required: no lost wake-up): pairs with Park's increment before its re-check
        // of _assignment. Either we see Parked and wake the worker, or it sees the new assignment.
        TryWake();
    }

    /// <summary>
    /// This worker (a loan, a return, a recall: <paramref name="expected"/> read before the snapshot it decided on), or
    /// the mover (<paramref name="expected"/> read just now): replaces the assignment <paramref name="expected"/>, whose
    /// set must be <paramref name="from"/>, by a new one to <paramref name="to"/>, unless anything replaced it meanwhile
    /// (CAS on the token: see the header). With the same set, a new token keeps the move's age.
    /// </summary>
    /// <remarks>
    /// Allocates the new assignment before the CAS (so also for a CAS that fails): once per attempted move, never per task.
    /// </remarks>
    public bool TryReplaceAssignment(WorkerAssignment expected, WorkQueueSet from, WorkQueueSet to)
    {
        ScheduleHook.Yield("self-assign.cas");
#if DEBUG
        if (s_casOnTheSetForTests && _assignment is { } now && ReferenceEquals(now.Set, expected.Set))
        {
            expected = now; // the code before the token: only the set had to be the same at the CAS
        }
#endif
        if (!ReferenceEquals(expected.Set, from))
        {
            return false; // the assignment had changed already when the token was read: the caller's loop switches
        }

        var next = new WorkerAssignment(to, ReferenceEquals(from, to) ? expected.AssignedAt : Stopwatch.GetTimestamp());
        WorkerAssignment witnessed = Interlocked.CompareExchange(ref _assignment, next, expected);
        if (ReferenceEquals(witnessed, expected))
        {
            return true;
        }

        if (ReferenceEquals(witnessed.Set, from))
        {
            // Failed on the token alone: the set is the expected one again, or still (a CAS on the set would have
            // succeeded). Named for the explorer's coverage check (SelfMoveExplorationTests).
            ScheduleHook.Yield("self-assign.stale-token");
        }

        return false;
    }

    /// <summary>
    /// The mover, for a decision that keeps this worker where it is assigned: a new token for the same assignment, so
    /// that a self-move decided before the decision was published fails (see the header; no yield point: one CAS, as
    /// atomic to the explorer as the read before it). False when the assignment changed since <paramref name="expected"/>.
    /// </summary>
    public bool TryRenewAssignment(WorkerAssignment expected)
        => ReferenceEquals(Interlocked.CompareExchange(ref _assignment, new WorkerAssignment(expected.Set, expected.AssignedAt), expected), expected);

    /// <summary>Any thread: the set this worker is parked on, or null when it is not parked on one.</summary>
    public WorkQueueSet? ParkedOn => _parkedOn;

    /// <summary>Any thread: wakes the worker if it is parked (in whatever episode); true if this call did.</summary>
    public bool TryWake()
    {
        while (true)
        {
            ScheduleHook.Yield("trywake.read");
            long word = Volatile.Read(ref _parkWord);
            if ((word & ParkStateMask) != ParkParked)
            {
                return false;
            }

            // CAS: a full fence (movers and shutdown rely on it, see Assign). A failure means the episode ended or a
            // later one began: look again.
            ScheduleHook.Yield("trywake.cas");
            if (Interlocked.CompareExchange(ref _parkWord, (word & ~ParkStateMask) | ParkNotified, word) == word)
            {
                _wake.Set();
                return true;
            }
        }
    }

    /// <summary>
    /// Waker (WorkQueueSet's wake token): wakes the worker only if it is parked on <paramref name="set"/>, in the very
    /// episode inspected (see the header); true if this call woke it, which then leaves Park on that set.
    /// </summary>
    public bool TryWakeIfParkedOn(WorkQueueSet set)
    {
#if DEBUG
        if (s_wakeWithoutEpochForTests)
        {
            // The code before the epoch: the set read first, then a CAS on whatever episode is current.
            ScheduleHook.Yield("wakeon.read-parked-on");
            return ReferenceEquals(_parkedOn, set) && TryWake();
        }
#endif

        ScheduleHook.Yield("wakeon.read-word");
        long word = Volatile.Read(ref _parkWord);
        if ((word & ParkStateMask) != ParkParked)
        {
            return false;
        }

        // Volatile read after the word (acquire): pairs with Park's write of _parkedOn before its Volatile.Write of the
        // word, so this is the set of the episode read above or of a later one (a later one makes the CAS fail).
        ScheduleHook.Yield("wakeon.read-parked-on");
        if (!ReferenceEquals(_parkedOn, set))
        {
            return false;
        }

        ScheduleHook.Yield("wakeon.cas");
        if (Interlocked.CompareExchange(ref _parkWord, (word & ~ParkStateMask) | ParkNotified, word) == word)
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

    /// <summary>
    /// The kernel's id of the worker's thread on Linux (0 elsewhere, or before the thread starts): the blocking monitor
    /// reads the thread's state from <c>/proc/self/task/ID/stat</c> to tell a blocked worker from a computing one.
    /// </summary>
    internal int OsThreadId => Volatile.Read(ref _osThreadId);

    private int _osThreadId;

    private void Run()
    {
        ScheduleHook.Yield("worker.start");
        t_current = this;
        if (OperatingSystem.IsLinux())
        {
            // Read by BlockingMonitor.IsComputing (Volatile.Read); written once, here, before the worker runs a task.
            Volatile.Write(ref _osThreadId, ThreadAffinity.Linux.GetCurrentThreadId());
        }

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
        SwitchTo(ref serving, _assignment.Set, Stopwatch.GetTimestamp());
        if (!IsCompensating)
        {
            _pool.ReportStarted();
        }

        uint random = (uint)(Slot + 1) * 0x9E3779B9u;
        if (random == 0)
        {
            random = 1;
        }

        while (true)
        {
            try
            {
                while (ServeSome(ref serving, ref random))
                {
                }

                break;
            }
            catch (ThreadInterruptedException)
            {
                // Best effort: a user's interrupt delivered in a blocking call of the loop outside parking and spinning
                // (which handle it where they are) must not kill the worker; it goes on serving.
            }
        }

        SwitchTo(ref serving, null, Stopwatch.GetTimestamp());
        if (IsCompensating)
        {
            Retire();
        }
        else
        {
            _pool.ReportExited();
        }

        ScheduleHook.Exiting();
    }

    /// <summary>Clears this worker's link to <paramref name="compensating"/> if it still names it.</summary>
    internal void ClearReplacement(Worker compensating)
        => Interlocked.CompareExchange(ref _replacedBy, null, compensating); // pairs with TrySetReplacement's CAS

    // Compensating worker, after leaving its set: no longer stands in for anyone; its slot is free again.
    private void Retire()
    {
        Worker? replacing = _replacing;
        // Clears the stuck worker's link only if it still names us (it may have cleared it on its return).
        replacing?.ClearReplacement(this);

        _pool.OnCompensatingWorkerExited(this);
    }

    // After a task: if a compensating worker stood in for this one while the task blocked, it retires now (at its own
    // next task boundary: reassigned to no set).
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReturnFromStall()
    {
        Worker? replacement = Interlocked.Exchange(ref _replacedBy, null);
        replacement?.Assign(null);
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
        ScheduleHook.Yield("serve.read-assigned");
        WorkQueueSet? assigned = _assignment.Set;
        if (!ReferenceEquals(assigned, serving))
        {
            SwitchTo(ref serving, assigned, Stopwatch.GetTimestamp());
        }

        if (serving is null)
        {
            if (_pool.IsShuttingDown || IsCompensating)
            {
                return false; // a compensating worker reassigned to no set retires
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
                if (IsCompensating)
                {
                    return !ReferenceEquals(_assignment.Set, serving); // nothing to do: retire (reassigned: switch to none)
                }

                return !(_pool.IsShuttingDown && ReferenceEquals(_assignment.Set, serving) && serving.IsQuiescentForExit());
            }
        }

        int untilGlobal = GlobalQueueInterval;
        do
        {
            serving.Execute(task, slot);

            // A compensating worker stood in for us while this task blocked: it retires (volatile read; rare path).
            if (Volatile.Read(ref _replacedBy) is not null)
            {
                ReturnFromStall();
            }

            // Lent: back home at this task boundary if home wants it (recall; the owner decides, rare path).
            if (_away)
            {
                RecallIfWanted(serving);
            }

            // A move takes effect at this task boundary (volatile read, as above): the caller switches sets.
            if (!ReferenceEquals(_assignment.Set, serving))
            {
                // Noticed here, the move was decided while the task in hand ran: it waited on that task. A long wait
                // goes on the timeline (rare path; a move noticed while idle or parked is not a pending one).
                if (_pool.Owner is not null && !IsCompensating && Stopwatch.GetTimestamp() - AssignedAt >= _pool.PendingMoveThresholdTicks)
                {
                    ReportPendingMoveEnded(serving, _assignment.Set);
                }

                return true;
            }

            // Fairness (see the header): now and then the global queue's oldest task before the own deque's newest.
            if (--untilGlobal == 0)
            {
                untilGlobal = GlobalQueueInterval;
                task = serving.TryDequeueGlobal(slot) ?? serving.LocalPop(slot);
                continue;
            }

            task = serving.LocalPop(slot);
        }
        while (task is not null);

        return true;
    }

    // A move that waited on a task of the set served (the timeline's pending moves): rare, a lock on the timeline.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReportPendingMoveEnded(WorkQueueSet? from, WorkQueueSet? to)
        => _pool.Owner?.OnPendingMoveEnded(this, from, to, AssignedAt, Stopwatch.GetTimestamp());

    // Lent worker at a task boundary (Lender.cs): asks the owner whether its home wants it back; a successful recall
    // changes _assignment, which the caller's next read turns into a switch.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void RecallIfWanted(WorkQueueSet serving)
    {
#if DEBUG
        if (s_recallOffForTests)
        {
            return;
        }
#endif
        ScheduleHook.Yield("recall.boundary");
        _pool.TryRecall(this, serving, out bool away);
        _away = away;
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

        // Leaving a set that still has queued tasks (its deque drained into them just now) may leave it with no worker:
        // the owner serves a starved program at once (MultiProgramScheduler.RepartitionWhenStarved). Rare: a switch.
        // The process-wide barrier pairs with producers that publish a task and read the set's demand mark with no fence
        // (WorkQueueSet.RequestWorkers): a producer that read the mark still set (cleared by the mover when the decision
        // left the set no worker: Mover.Apply) published its task before that clear, and the barrier makes it visible
        // to the read below (required: the starved trigger is not lost).
        if (serving is not null && _pool.TracksStarvation)
        {
            Interlocked.MemoryBarrierProcessWide();
            if (serving.AvailableTasks > 0)
            {
                _pool.Owner?.OnLeftWithWork(serving);
            }
        }

        serving = next;
        Serving = next;
        _servingForReaders = next;
        next?.Enter(Slot, now);
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
        if (ReferenceEquals(_assignment.Set, serving) && serving.TryDequeueGlobal(Slot) is { } queued)
        {
            return FoundWork(serving, searching: false, queued);
        }

        ref WorkerCounters counters = ref serving.CountersOf(Slot);
        long now = Stopwatch.GetTimestamp();
        counters.Transition(WorkerCounters.StateIdle, now);
        var spinner = default(SpinWait);
        int spins = 0;
        bool searching = false;
        int spinLimit = SpinLimit;
#if DEBUG
        if (s_spinLimitForTests > 0)
        {
            spinLimit = s_spinLimitForTests;
        }
#endif
        while (true)
        {
            // A move takes effect before the next task is taken: a worker reassigned while it was looking for work
            // (or parked) must not take one more task of the program it no longer serves.
            ScheduleHook.Yield("find.read-assigned");
            if (!ReferenceEquals(_assignment.Set, serving))
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
                WorkerCounters.Bump(ref counters.Steals);
                if (remote)
                {
                    WorkerCounters.Bump(ref counters.RemoteSteals);
                }
                else
                {
                    WorkerCounters.Bump(ref counters.LocalSteals);
                }

                WorkerCounters.Add(ref counters.StealTicks, now - stealStart);
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

                // Shutting down and a task of the set still runs (it may queue more): poll, never block, and back off
                // to 1 ms sleeps so that a long task does not keep the other workers spinning.
                StartSearching(serving, ref searching);
                bool explored = false;
                ScheduleHook.Spin("find.shutdown-poll", ref explored);
                if (!explored)
                {
                    SpinOnce(ref spinner, sleep1Threshold: 20);
                }

                continue;
            }

            if (missed || spins < spinLimit)
            {
                StartSearching(serving, ref searching);
                spins++;
                SpinOnce(ref spinner, sleep1Threshold: -1);
                continue;
            }

            if (IsCompensating)
            {
                // A compensating worker never parks: with nothing to find it retires (the monitor adds another if the
                // set stalls again).
                StopSearching(serving, searching);
                return null;
            }

            // Ran dry: the set no longer wants workers (WorkQueueSet.cs header, Demand). A demand cleared here may have
            // come with a task this search missed (required: no task stranded by a lender leaving): look again first.
            if (serving.ClearWantsWorkers() && serving.HasVisibleWork())
            {
                spins = 0;
                continue;
            }

            WorkQueueSet? moved = _pool.TryFindIdleWork(this, serving, out SelfMove kind);
            if (moved is not null)
            {
                _away = kind == SelfMove.Loan;
                StopSearching(serving, searching);
                return null; // lent, or back home (MultiProgramScheduler's lender): the caller switches
            }

            // Park ends our search before its barrier and starts a new one when it returns (woken or not).
            Park(serving, searching);
            searching = true;
            spins = 0;
            spinner.Reset();
        }
    }

    // SpinWait.SpinOnce, which may sleep or yield: a user's Thread.Interrupt pending on this worker would throw there.
    private static void SpinOnce(ref SpinWait spinner, int sleep1Threshold)
    {
        try
        {
            spinner.SpinOnce(sleep1Threshold);
        }
        catch (ThreadInterruptedException)
        {
            // Ignored: the interrupt was meant for a task, not for the worker (see the header).
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
        ScheduleHook.Yield("park.parked-on");
        _parkedOn = set;

        // A new episode (only this worker changes the epoch). Release: _parkedOn above is visible to a waker that reads
        // this word (TryWakeIfParkedOn).
        long epoch = (Volatile.Read(ref _parkWord) >> EpochShift) + 1;
        ScheduleHook.Yield("park.word-parked");
        Volatile.Write(ref _parkWord, (epoch << EpochShift) | ParkParked);

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

        ScheduleHook.Yield("park.recheck");
        bool block = ReferenceEquals(_assignment.Set, set)
            && !_pool.IsShuttingDown
            && (set is null || !set.HasVisibleWork())
            && !_pool.HasIdleWorkFor(this, set);
        if (block)
        {
            ScheduleHook.BlockUntil(() => _wake.IsSet, "park.block");
            WaitForWakeUp();
        }

        // The episode ends (same epoch): a waker's CAS on it fails from now on.
        ScheduleHook.Yield("park.word-running");
        Interlocked.Exchange(ref _parkWord, (epoch << EpochShift) | ParkRunning);

        // Searching again, then the wake token released (WorkQueueSet.cs header, obligation 3).
        set?.OnUnparked();
        if (lender)
        {
            _pool.RemoveParkedLender();
        }

        ScheduleHook.Yield("park.clear-parked-on");
        _parkedOn = null;
    }

    private void WaitForWakeUp()
    {
        while (true)
        {
            try
            {
                _wake.Wait();
                return;
            }
            catch (ThreadInterruptedException)
            {
                // A user's Thread.Interrupt on a parked worker: not a wake-up, and never fatal (see the header).
            }
        }
    }
}
