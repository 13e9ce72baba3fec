// MultiProgramScheduler: one pool of pinned workers shared by several programs, each with its own queue set
// (thesis §5.3.3, Figures 5.15-5.17). The queue machinery is the standalone scheduler's (WorkQueueSet,
// WorkStealingDeque); only the supply of threads differs: a WorkerPool whose workers are *lent* to programs.
//
// Roles
//   program tasks - producers and consumers of their program's queue set (protocol: WorkQueueSet.cs).
//   workers       - one per processor; each serves one program's set at a time; a move takes effect between two
//                   tasks: the worker drains its deque of the old program into that program's global queue, then
//                   serves the new one, starting with its global queue (Worker.cs). No thread is created or destroyed.
//   mover         - the thread running a repartitioning (the repartitioner thread on the interval; the caller of
//                   AddProgram / RemoveProgram / Repartition / Policy). Every repartitioning runs under _lock, so
//                   moves are decided by one thread at a time; workers read their assignment with one volatile read.
//   policy        - IPartitioningPolicy: pure input -> Allocation. The mover validates (Allocation.Validate) and
//                   applies; it never decides. An invalid result is rejected and the allocation in force is kept
//                   (on a program's arrival or exit, where the old allocation no longer fits the programs, the
//                   equal-shares allocation is applied instead and the rejection is still reported).
//   lender        - a worker that found nothing in the set it serves (after spinning; again in its park re-check) asks
//                   FindIdleWork (WorkerPool.IdleWorkFinder), which reads the allocation in force (_applied, one
//                   volatile read) and decides, without a lock or an allocation:
//                   (a) away from its home (the set the allocation in force gives its slot): it goes home. This ends a
//                       loan when the borrower has no task the worker can find; at home it may ask again (b).
//                   (b) at home, with lending in force (the policy implements IIdleLendingPolicy, or the IdleLending
//                       option is on): the borrower rule (the policy's ChooseBorrower, else IdleLending.ChooseBorrower)
//                       gets the decision's scalabilities, each program's serving workers (ProgramHandle's counter:
//                       owned + lent in - lent out) and its AvailableTasks; it lends itself to the program chosen.
//                   The worker then CASes its own assignment from the set it serves (Worker.TrySelfAssign): the move
//                   happens at that task boundary like any other (a task is never interrupted), and is recorded with
//                   reason IdleLending or LoanReturn. A loan also ends at the next allocation: Apply moves every worker
//                   to its slot's program.
//                   Ordering (required: a move by the mover always wins over a self-move): Apply publishes _applied
//                   before it moves workers, and moves them by CAS (Reassign), retrying until its value is in; a self-move
//                   decided on an older snapshot either comes before the mover's CAS (which then replaces it) or fails.
//                   Exact serving counts: every assignment change is a successful CAS, counted by the thread that made it.
//                   Lending's wake-ups (a producer whose set has no parked worker wakes a worker parked on another set:
//                   WorkQueueSet.SignalWork) are switched with the lending in force (WorkerPool.SetLending).
//
// Invariants (tests: MultiProgramSchedulerTests; lending: IdleLendingInMultiProgramSchedulerTests)
//   - Every task queued to a program runs exactly once, whatever moves happen (a deque is only drained by its owner,
//     into its own program's global queue; a running task is never interrupted).
//   - A worker's assignment is one field: it serves at most one program; while programs exist, every applied
//     allocation assigns every worker (Allocation.Validate), and the counts sum to the pool size.
//   - Each program's serving count equals the workers assigned to it once the moves in flight are counted.
//
// Removal of a program, in order: (1) under _lock mark it removing and close its queues to outside producers;
// (2) with CancelTasks, cancel its token; (3) outside the lock, wait until its outstanding count is zero
// (WorkQueueSet.IsIdle: nothing queued or running) — it keeps its workers meanwhile; (4) under _lock remove it and
// repartition (trigger ProgramExit), which moves its workers to the others.
// The mechanism's one override of a policy (required: removal always finishes): a program being removed that still
// has outstanding tasks but was given no worker gets one, taken from the program holding the most, and recorded
// with reason ProgramExit. Without it a policy that starves the program (a fixed allocation, a chaos test, an
// availability cap reading zero while a task runs) would make the removal, and Dispose, wait forever. Likewise a
// program being removed whose workers are all on loan gets a repartitioning, which ends the loans.
//
// Blocking compensation (on by default, MultiProgramSchedulerOptions.CompensateBlocking): per program, the pool's
// blocking monitor (BlockingMonitor.cs) adds a temporary compensating worker when the program has tasks queued, holds a
// worker, and none of its tasks started or finished for CompensationDelay. The compensating worker serves that program
// only, is not part of any allocation (policies never see it; it is never moved or lent), and retires when the worker
// it stands in for returns from its task. Each start and exit is on the timeline (reason BlockingCompensation /
// CompensationEnded, trigger BlockingCompensation, on a slot past the pool's) and counted on the meter. Off, the pool
// never has more threads than processors (the harness's thesis schemes turn it off and record that).
//
// Calls from the pool's own workers (required: no self-deadlock): RemoveProgram from any task running on the pool is
// rejected (the removal waits for a program's tasks, and may give that program the very worker the call blocks, issue
// 14 defect 4); Dispose there runs on a new thread (below).
//
// Telemetry never breaks the mechanism: a MeterListener callback that throws inside Counter.Add (on the mover's path
// in Apply, or on a worker's path when it lends itself) is caught and counted (TelemetryErrors).
//
// Dispose, in order: (1) refuse new programs; (2) remove every program as in DisposeMode (all closed and canceled
// first, then waited for; periodic repartitionings go on meanwhile); (3) stop the repartitioner thread and join it; (4) shut the pool down and join every
// worker; (5) dispose the meter. Called on one of the pool's own workers, Dispose runs these steps on a new thread
// and returns (waiting would wait for the calling task itself).
//
// Rejected: a TaskScheduler per program with its own threads plus OS-level priorities (oversubscription, the
// thesis's baseline problem); moving a worker in the middle of a task (a task's thread must not change); asking
// the worker to pick its next program itself (decisions would spread over P threads and could not be logged with
// the policy's reason in one place). Idle lending is the one, bounded, exception: a worker with nothing to do evaluates
// the policy's borrower rule itself (a decision between ticks cannot wait for the mover's lock), the allocation stays
// the mover's, and every loan and return is logged with its reason.
using System.Diagnostics;
using DivCon.Partitioning;
using DivCon.Scheduling;

namespace DivCon.Multiprogramming;

/// <summary>
/// Shares one pool of worker threads, one pinned to each allowed processor, among several task-parallel programs.
/// Each program gets its own work-stealing <see cref="TaskScheduler"/>; a partitioning policy decides how many (and
/// which) workers each program holds, re-evaluated on every program arrival and exit and every interval.
/// </summary>
public sealed partial class MultiProgramScheduler : IDisposable
{
    // Programs whose serving and task counts a lender keeps on its stack; more use per-slot buffers.
    private const int StackallocPrograms = 128;

    private readonly object _lock = new();
    private readonly WorkerPool _pool;
    private readonly int[]? _processors;
    private readonly List<ProgramHandle> _programs = [];       // under _lock
    private readonly IReadOnlyList<IReadOnlyList<int>>? _cacheGroupSlots;
    private readonly Thread _repartitioner;
    private readonly AutoResetEvent _tickSignal = new(false);
    private readonly TimeSpan _interval;
    private readonly ProgramRemoval _disposeMode;
    private readonly EqualSharesPolicy _fallback = new();
    private Allocation? _previous;                              // under _lock
    private int[]? _previousProgramIds;                         // under _lock
    private volatile Applied _applied;                          // written under _lock; read by anyone (workers: lending)
    private readonly bool _lendingOption;                       // MultiProgramSchedulerOptions.IdleLending
    private bool _poolLending;                                  // under _lock: what the pool's lending switch was set to
    private int[][]? _wideLendingBuffers;                       // under _lock: per slot, for more than StackallocPrograms programs
    private IPartitioningPolicy _policy;                        // under _lock
    private int _nextProgramId;                                 // under _lock
    private int _state;                                         // 0 running, 1 disposing (Interlocked)
    private volatile bool _stopRepartitioner;                   // set by DisposeCore after the programs are gone
    private long _rejected;
    private long _repartitions;
    private string? _lastRejection;

    /// <summary>Creates a scheduler with one pinned worker per core of the CPU budget (<see cref="CpuBudget.Detect"/>) and equal shares.</summary>
    public MultiProgramScheduler()
        : this(new MultiProgramSchedulerOptions())
    {
    }

    /// <summary>Creates a scheduler as described by <paramref name="options"/>.</summary>
    /// <exception cref="ArgumentException">Invalid processors, interval or timeline capacity; the message says what is allowed.</exception>
    /// <exception cref="PlatformNotSupportedException">Pinning is impossible here and neither best effort nor unpinned was asked for.</exception>
    public MultiProgramScheduler(MultiProgramSchedulerOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentException.ThrowIfNullOrWhiteSpace(options.ThreadName, nameof(options));
        if (options.RepartitionInterval != Timeout.InfiniteTimeSpan
            && (options.RepartitionInterval < TimeSpan.FromMilliseconds(1) || options.RepartitionInterval > TimeSpan.FromHours(1)))
        {
            throw new ArgumentOutOfRangeException(
                nameof(options), options.RepartitionInterval, "RepartitionInterval must be between 1 ms and 1 hour, or Timeout.InfiniteTimeSpan for no periodic repartitioning.");
        }

        if (options.TimelineCapacity < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(options), options.TimelineCapacity, "TimelineCapacity must be at least 1.");
        }

        Budget = ResolveBudget(options);
        int[] processors = ThreadAffinity.ValidateProcessors(
            options.Processors ?? Budget.SelectProcessors(), nameof(options.Processors)).ToArray();
        BudgetWarning = Budget.CheckWorkers(processors.Length);
        Action<int>? pinner = null;
        if (!options.Unpinned)
        {
            if (ThreadAffinity.IsSupported)
            {
                pinner = ThreadAffinity.PinCurrentThread;
            }
            else if (!options.BestEffortPinning)
            {
                throw new PlatformNotSupportedException(
                    $"Pinning threads is not supported on {System.Runtime.InteropServices.RuntimeInformation.OSDescription}. Set BestEffortPinning or Unpinned to run the workers unpinned.");
            }
        }

        if (options.CompensateBlocking)
        {
            WorkStealingSchedulerOptions.ValidateCompensation(options.CompensationDelay, options.MaxCompensatingWorkers, nameof(options));
        }

        _policy = options.Policy ?? _fallback;
        _interval = options.RepartitionInterval;
        _disposeMode = options.DisposeMode;
        if (!Enum.IsDefined(options.StealingScope))
        {
            throw new ArgumentOutOfRangeException(nameof(options), options.StealingScope, "StealingScope must be All or CacheGroupFirst.");
        }

        // Slot i is on processors[i] (pinned, or one per processor when unpinned).
        StealGroups? groups = StealGroups.Resolve(
            processors.Length, options.StealingGroups, options.StealingTopology, options.StealingScope == StealingScope.CacheGroupFirst, processors, nameof(options));
        _pool = new WorkerPool(options.ThreadName, processors.Length, pinner is null ? null : processors, pinner);
        _pool.StealGroups = groups;
        _pool.StealingScope = options.StealingScope;
        if (options.CompensateBlocking)
        {
            _pool.EnableCompensation(options.MaxCompensatingWorkers, options.CompensationDelay);
            _pool.Compensated = RecordCompensation;
            _pool.CompensationEnded = RecordCompensationEnded;
        }

        _lendingOption = options.IdleLending;
        _applied = Applied.Empty(processors.Length);

        // Always installed (see the header, lender): the finder also ends loans, whatever the lending in force. The pool's
        // lending wake-ups stay off until an allocation puts lending in force (Apply).
        _pool.IdleWorkFinder = FindIdleWork;
        _pool.Lent = RecordLending;
        _pool.Start();
        _pool.SetLending(false); // no program yet, so no producer has run: nothing was woken for lending
        Exception? pinError = _pool.Workers.Select(w => w.PinError).FirstOrDefault(e => e is not null);
        if (pinError is not null && !options.BestEffortPinning)
        {
            _pool.BeginShutdown();
            _pool.Join();
            throw new PlatformNotSupportedException($"Could not pin the workers: {pinError.Message}", pinError);
        }

        _processors = pinner is not null && pinError is null ? processors : null;
        UnpinnedReason = _processors is not null ? null
            : options.Unpinned ? "Unpinned was requested."
            : pinError is not null ? $"Pinning failed, the workers run unpinned: {pinError.Message}"
            : "Pinning is not supported on this platform; the workers run unpinned.";
        _cacheGroupSlots = CacheGroupSlots(_processors);
        Timeline = new AllocationTimeline(options.TimelineCapacity, processors.Length, Enumerable.Range(0, processors.Length).Select(ProcessorOf).ToArray());
        _meter = CreateMeter();
        _repartitioner = new Thread(RepartitionLoop) { IsBackground = true, Name = "DivCon repartitioner" };
        _repartitioner.Start();
    }

    /// <summary>Number of workers (one per processor).</summary>
    public int WorkerCount => _pool.WorkerCount;

    /// <summary>Per worker, the processor it is pinned to; empty when unpinned.</summary>
    public IReadOnlyList<int> PinnedProcessors => _processors ?? [];

    /// <summary>True when every worker is pinned to its processor.</summary>
    public bool IsPinned => _processors is not null;

    /// <summary>Why the workers are unpinned; null when pinned.</summary>
    public string? UnpinnedReason { get; }

    /// <summary>Every move with its time and reason.</summary>
    public AllocationTimeline Timeline { get; }

    /// <summary>Allocations the policy returned that were rejected as invalid (or that threw).</summary>
    public long RejectedAllocations => Interlocked.Read(ref _rejected);

    /// <summary>Why the last rejected allocation was rejected; null if none was.</summary>
    public string? LastRejection => Volatile.Read(ref _lastRejection);

    /// <summary>Repartitionings carried out (policy calls, valid or not).</summary>
    public long Repartitions => Interlocked.Read(ref _repartitions);

    /// <summary>The programs registered now, in arrival order.</summary>
    public IReadOnlyList<ProgramHandle> Programs => _applied.Programs;

    /// <summary>
    /// The partitioning policy. Setting it repartitions at once; if the new policy's first allocation is invalid, the
    /// previous policy and allocation are kept and <see cref="InvalidOperationException"/> says why.
    /// </summary>
    public IPartitioningPolicy Policy
    {
        get
        {
            lock (_lock)
            {
                return _policy;
            }
        }

        set
        {
            ArgumentNullException.ThrowIfNull(value);
            lock (_lock)
            {
                ThrowIfDisposed();
                IPartitioningPolicy old = _policy;
                _policy = value;
                string? problem = RepartitionNeedsLock(RepartitionTrigger.Manual);
                if (problem is not null)
                {
                    _policy = old;
                    throw new InvalidOperationException(problem);
                }
            }
        }
    }

    /// <summary>Registers a program and repartitions (trigger <see cref="RepartitionTrigger.ProgramArrival"/>).</summary>
    /// <param name="name">A name for reports and metrics; not empty.</param>
    /// <param name="scalability">Its speedup alone on the whole machine; positive and finite (default 1).</param>
    /// <param name="scalabilityTable">Optional speedups at several core counts.</param>
    /// <exception cref="ObjectDisposedException">The scheduler has been disposed.</exception>
    public ProgramHandle AddProgram(string name, double scalability = 1.0, ScalabilityTable? scalabilityTable = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ValidateScalability(scalability, nameof(scalability));
        lock (_lock)
        {
            ThrowIfDisposed();
            var program = new ProgramHandle(this, _nextProgramId++, name, scalability, scalabilityTable, _pool, ProcessorOf);
            program.Queues.Tag = program;
            program.Queues.LateTaskQueued = RecordLateTask;
            _pool.Watch(program.Queues);
            _programs.Add(program);
            Timeline.NameProgram(program.Id, name);
            RepartitionNeedsLock(RepartitionTrigger.ProgramArrival);
            return program;
        }
    }

    /// <summary>
    /// Removes a program: it stops accepting tasks from outside its own tasks, its outstanding tasks run (or, with
    /// <see cref="ProgramRemoval.CancelTasks"/>, those created with its token end canceled), then its workers go
    /// to the other programs. Blocks until then.
    /// </summary>
    /// <exception cref="ArgumentException">The program belongs to another scheduler.</exception>
    /// <remarks>
    /// Waits for the tasks queued or running, not for async methods suspended in an <c>await</c>: a continuation that
    /// comes back after the removal runs on the .NET thread pool and is counted in <see cref="ProgramHandle.LateTasks"/>
    /// (await the program's own work first to have it run on the program's workers).
    /// </remarks>
    /// <exception cref="InvalidOperationException">The program was already removed (or is being removed), or the call comes from a task running on this scheduler's workers.</exception>
    public void RemoveProgram(ProgramHandle program, ProgramRemoval mode = ProgramRemoval.WaitForTasks)
    {
        ArgumentNullException.ThrowIfNull(program);
        if (!ReferenceEquals(program.Owner, this))
        {
            throw new ArgumentException($"Program {program} belongs to another MultiProgramScheduler.", nameof(program));
        }

        if (!Enum.IsDefined(mode))
        {
            throw new ArgumentOutOfRangeException(nameof(mode), mode, "Use ProgramRemoval.WaitForTasks or ProgramRemoval.CancelTasks.");
        }

        // Any worker of the pool (compensating ones too), or any thread running one of the program's own tasks (a
        // LongRunning one on its dedicated thread, a late one on the thread pool): the removal would wait for itself.
        if (_pool.IsCurrentThreadAWorker || ReferenceEquals(TaskScheduler.Current, program.Scheduler))
        {
            throw new InvalidOperationException(
                $"Program {program} cannot be removed from a task running on this scheduler's workers: the removal waits for the program's tasks and may need the very worker that would wait. Call RemoveProgram from another thread (for example inside Task.Run).");
        }

        BeginRemoval(program, mode);
        FinishRemoval(program);
    }

    /// <summary>Runs the policy now (trigger <see cref="RepartitionTrigger.Manual"/>).</summary>
    /// <exception cref="InvalidOperationException">The policy's allocation was invalid; the allocation in force is kept.</exception>
    public void Repartition()
    {
        lock (_lock)
        {
            ThrowIfDisposed();
            string? problem = RepartitionNeedsLock(RepartitionTrigger.Manual);
            if (problem is not null)
            {
                throw new InvalidOperationException(problem);
            }
        }
    }

    /// <summary>Who each worker is assigned to and the counts in force, read under the repartitioning lock.</summary>
    public MultiProgramSnapshot GetSnapshot()
    {
        lock (_lock)
        {
            Applied applied = _applied;
            var workers = new int?[_pool.WorkerCount];
            for (int i = 0; i < workers.Length; i++)
            {
                workers[i] = (_pool.Workers[i].Assigned?.Tag as ProgramHandle)?.Id;
            }

            return new MultiProgramSnapshot(
                Stopwatch.GetTimestamp(),
                workers,
                new Dictionary<int, int>(applied.CoresById),
                applied.Programs.ToDictionary(p => p.Id, p => p.AvailableTasks),
                _pool.Workers.Select(w => (w.ServingForReaders?.Tag as ProgramHandle)?.Id).ToArray()) { BudgetWarning = BudgetWarning };
        }
    }

    /// <summary>
    /// Removes every program as <see cref="MultiProgramSchedulerOptions.DisposeMode"/> says (their outstanding tasks
    /// run, or are canceled), then stops every thread of the scheduler. A second call does nothing. On one of the
    /// pool's own workers it starts these steps on a new thread and returns.
    /// </summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _state, 1) != 0)
        {
            return;
        }

        if (ReferenceEquals(Worker.Current?.Pool, _pool))
        {
            new Thread(DisposeCore) { IsBackground = true, Name = "DivCon mp dispose" }.Start();
            return;
        }

        DisposeCore();
    }

    /// <summary>Waits until every thread of a disposed scheduler has exited; false on timeout (for callers of Dispose on a worker).</summary>
    public bool WaitForShutdown(TimeSpan timeout) => _pool.Join(timeout) && _repartitioner.Join(timeout);

    internal WorkerPool Pool => _pool;

    internal Thread RepartitionerThread => _repartitioner;

    internal static void ValidateScalability(double value, string paramName)
    {
        if (!(value > 0) || double.IsInfinity(value))
        {
            throw new ArgumentOutOfRangeException(paramName, value, "Scalability must be positive and finite (a speedup, e.g. 1.0 for a sequential program).");
        }
    }

    internal int CoresOf(ProgramHandle program) => _applied.CoresById.TryGetValue(program.Id, out int cores) ? cores : 0;

    private int? ProcessorOf(int slot) => _processors?[slot];

    private void ThrowIfDisposed()
    {
        if (Volatile.Read(ref _state) != 0)
        {
            throw new ObjectDisposedException(nameof(MultiProgramScheduler), "The MultiProgramScheduler has been disposed: programs can no longer be added or changed.");
        }
    }

    private void BeginRemoval(ProgramHandle program, ProgramRemoval mode)
    {
        lock (_lock)
        {
            if (program.IsRemoved || program.IsRemoving)
            {
                throw new InvalidOperationException($"Program {program} has already been removed (or is being removed).");
            }

            program.IsRemoving = true;
            program.Queues.CloseExternal();
        }

        if (mode == ProgramRemoval.CancelTasks)
        {
            program.Cancel();
        }

        lock (_lock)
        {
            // Gives it a worker now if the policy had left it none (see the header).
            EnsureServedNeedsLock(program);
        }
    }

    private void EnsureServedNeedsLock(ProgramHandle program)
    {
        // No worker serving it now: none allocated, or every one it holds is on loan to a program that never runs dry.
        // A repartitioning gives it one (below) and ends every loan (Apply), so its workers come back.
        if (!program.IsRemoved && (CoresOf(program) == 0 || program.ServingWorkers == 0) && !program.Queues.IsIdle())
        {
            RepartitionNeedsLock(RepartitionTrigger.ProgramExit);
        }
    }

    private void FinishRemoval(ProgramHandle program)
    {
        // Outside the lock: repartitionings (which keep the program's workers) go on meanwhile.
        var spinner = default(SpinWait);
        int sleepMs = 0;
        while (!program.Queues.IsIdle())
        {
            bool explored = false;
            ScheduleHook.Spin("removal.poll", ref explored);
            if (explored)
            {
                EnsureServedIfUnserved(program);
                continue;
            }

            if (!spinner.NextSpinWillYield)
            {
                spinner.SpinOnce();
                continue;
            }

            Thread.Sleep(sleepMs);
            sleepMs = Math.Min(sleepMs + 1, 5);
            EnsureServedIfUnserved(program);
        }

        lock (_lock)
        {
            _programs.Remove(program);
            program.IsRemoved = true;
            _pool.Unwatch(program.Queues);
            RepartitionNeedsLock(RepartitionTrigger.ProgramExit);
        }
    }

    private void EnsureServedIfUnserved(ProgramHandle program)
    {
        if (CoresOf(program) == 0 || program.ServingWorkers == 0)
        {
            // A repartitioning since (or the number of programs being removed at once) left it no worker, or its
            // workers are on loan (with no tick, a loan to a program that never runs dry would never end).
            lock (_lock)
            {
                EnsureServedNeedsLock(program);
            }
        }
    }

    private void DisposeCore()
    {
        ProgramHandle[] programs;
        lock (_lock)
        {
            programs = _programs.Where(p => !p.IsRemoving).ToArray();
            foreach (ProgramHandle p in programs)
            {
                p.IsRemoving = true;
                p.Queues.CloseExternal();
            }
        }

        if (_disposeMode == ProgramRemoval.CancelTasks)
        {
            foreach (ProgramHandle p in programs)
            {
                p.Cancel();
            }
        }

        foreach (ProgramHandle p in programs)
        {
            FinishRemoval(p);
        }

        // Programs being removed by other threads when Dispose began: their removals finish on those threads.
        var spinner = default(SpinWait);
        while (true)
        {
            lock (_lock)
            {
                if (_programs.Count == 0)
                {
                    break;
                }
            }

            bool explored = false;
            ScheduleHook.Spin("dispose.wait-removals", ref explored);
            if (!explored)
            {
                spinner.SpinOnce(sleep1Threshold: 1);
            }
        }

        _stopRepartitioner = true;
        _tickSignal.Set();
        _repartitioner.Join();
        _tickSignal.Dispose();
        _pool.BeginShutdown();
        _pool.Join();
        _meter.Dispose();
    }

    private void RepartitionLoop()
    {
        while (true)
        {
            _tickSignal.WaitOne(_interval);
            if (_stopRepartitioner)
            {
                return;
            }

            lock (_lock)
            {
                if (_stopRepartitioner)
                {
                    return;
                }

                RepartitionNeedsLock(RepartitionTrigger.Interval);
            }
        }
    }

    /// <summary>Gathers the input, asks the policy, validates and applies. Returns the rejection message, or null.</summary>
    private string? RepartitionNeedsLock(RepartitionTrigger trigger)
    {
        Debug.Assert(Monitor.IsEntered(_lock));
        Interlocked.Increment(ref _repartitions);
        ProgramHandle[] programs = [.. _programs];
        if (programs.Length == 0)
        {
            Apply(new Allocation(0, Enumerable.Repeat(-1, _pool.WorkerCount).ToArray()), programs, [], trigger);
            return null;
        }

        var loads = new ProgramLoad[programs.Length];
        for (int i = 0; i < programs.Length; i++)
        {
            loads[i] = new ProgramLoad(programs[i].Id, programs[i].Scalability, programs[i].AvailableTasks, programs[i].ScalabilityTable);
        }

        double[] scalabilities = new double[programs.Length];
        for (int i = 0; i < programs.Length; i++)
        {
            scalabilities[i] = loads[i].Scalability;
        }

        var input = new PartitioningInput(_pool.WorkerCount, loads, _cacheGroupSlots, _previous, _previousProgramIds);
        IPartitioningPolicy policy = _policy;
        string? problem;
        Allocation? decided = null;
        try
        {
            decided = policy.Decide(input);
            problem = decided is null
                ? "it returned null"
                : decided.Validate(input) is { Count: > 0 } problems ? string.Join(" ", problems) : null;
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            problem = $"it threw {ex.GetType().Name}: {ex.Message}";
        }

        if (problem is null)
        {
            Apply(ServeRemovingPrograms(decided!, programs), programs, scalabilities, trigger);
            return null;
        }

        string message = $"The partitioning policy '{policy.Name}' returned an invalid allocation on a {trigger} repartitioning, so it was rejected: {problem}";
        Interlocked.Increment(ref _rejected);
        Volatile.Write(ref _lastRejection, message);
        RecordRejection();
        if (trigger is RepartitionTrigger.ProgramArrival or RepartitionTrigger.ProgramExit)
        {
            // The allocation in force was for another set of programs: fall back to equal shares.
            Apply(ServeRemovingPrograms(_fallback.Decide(input), programs), programs, scalabilities, trigger);
            return message + " Equal shares were applied instead, because the programs changed.";
        }

        return message + " The allocation in force is kept.";
    }

    /// <summary>The override described in the header: a removing program with outstanding tasks keeps one worker.</summary>
    private static Allocation ServeRemovingPrograms(Allocation allocation, ProgramHandle[] programs)
    {
        int[]? owners = null;
        AllocationReason[]? reasons = null;
        int[] counts = [.. allocation.Counts];
        for (int i = 0; i < programs.Length; i++)
        {
            if (!programs[i].IsRemoving || counts[i] > 0 || programs[i].Queues.IsIdle())
            {
                continue;
            }

            // Take the last slot of the program holding the most workers (more than one, so it keeps one).
            int donor = Enumerable.Range(0, programs.Length).MaxBy(j => counts[j]);
            if (counts[donor] < 2 && programs[donor].IsRemoving)
            {
                continue; // nothing to spare now; a later repartitioning, after a removal finishes, will give one
            }

            owners ??= [.. allocation.WorkerOwners];
            reasons ??= [.. allocation.Reasons];
            int slot = Array.LastIndexOf(owners, donor);
            owners[slot] = i;
            reasons[slot] = AllocationReason.ProgramExit;
            counts[donor]--;
            counts[i]++;
        }

        return owners is null ? allocation : new Allocation(allocation.ProgramCount, owners, reasons);
    }

    private void Apply(Allocation allocation, ProgramHandle[] programs, double[] scalabilities, RepartitionTrigger trigger)
    {
        Debug.Assert(Monitor.IsEntered(_lock));
        long now = Stopwatch.GetTimestamp();
        int workers = _pool.WorkerCount;
        int[] owners = new int[workers];
        var homes = new WorkQueueSet?[workers];
        var reasons = new AllocationReason[workers];
        for (int slot = 0; slot < workers; slot++)
        {
            owners[slot] = allocation.WorkerOwners[slot];
            homes[slot] = owners[slot] >= 0 ? programs[owners[slot]].Queues : null;
            reasons[slot] = allocation.Reasons[slot] != AllocationReason.None ? allocation.Reasons[slot] : trigger switch
            {
                RepartitionTrigger.ProgramArrival => AllocationReason.ProgramArrival,
                RepartitionTrigger.ProgramExit => AllocationReason.ProgramExit,
                _ => AllocationReason.None,
            };
        }

        var cores = new Dictionary<int, int>(programs.Length);
        for (int i = 0; i < programs.Length; i++)
        {
            cores[programs[i].Id] = allocation.Counts[i];
        }

        IIdleLendingPolicy? rule = _policy as IIdleLendingPolicy;
        bool lending = rule is not null || _lendingOption;

        // Published before the moves below (required: a move by the mover always wins over a self-move). A worker that
        // reads this snapshot while its assignment still says otherwise treats it as a loan and goes to its new home
        // itself, which is where the moves below put it anyway. Published after them, a worker already moved could read
        // the old homes, take its new set for a loan, and move itself back over the mover's decision.
        ScheduleHook.Yield("apply.publish");
        var applied = new Applied(programs, cores, scalabilities, owners, homes, _applied.Homes, reasons, trigger, lending, rule, LendingBuffers(programs.Length));
        _applied = applied;
        if (lending != _poolLending)
        {
            _pool.SetLending(lending);
            _poolLending = lending;
        }

        for (int slot = 0; slot < workers; slot++)
        {
            int owner = owners[slot];
            ProgramHandle? target = owner >= 0 ? programs[owner] : null;
            Worker worker = _pool.Workers[slot];
            if (!Reassign(worker, target?.Queues, out WorkQueueSet? replaced))
            {
                continue; // already there (owned, or it came home from a loan by itself)
            }

            // The worker's actual assignment may differ from what we last applied when it was on loan.
            var current = replaced?.Tag as ProgramHandle;
            current?.AddServingWorkers(-1);
            target?.AddServingWorkers(1);
            current?.CountMoveOut();
            target?.CountMoveIn();
            AllocationReason reason = reasons[slot];
            Timeline.Record(new AllocationMove(now, slot, ProcessorOf(slot), current?.Id, target?.Id, reason, trigger));
            RecordMove(reason, trigger);
        }

        // Release: a worker that reads it true sees the moves above as done (RecordLending's labels).
        applied.MovesDone = true;
        _previous = allocation;
        _previousProgramIds = programs.Select(p => p.Id).ToArray();
    }

    /// <summary>
    /// Mover: assigns <paramref name="worker"/> to <paramref name="target"/> unless it is there already (false).
    /// <paramref name="replaced"/> is the assignment the move replaced, so that the serving counts follow every change.
    /// </summary>
    /// <remarks>
    /// A CAS loop, not a plain write (required: exact serving counts). A worker changes its own assignment only by a CAS
    /// from the set it serves (a loan or a return, WorkerPool.TryFindIdleWork); whoever's CAS succeeds counts that
    /// change, so each change is counted once and against the set it really replaced. The mover retries until its value
    /// is in: its decision always wins, a self-move can only come before it. The CAS is a full fence, as Worker.Assign's
    /// write + TryWake (whose CAS pairs with Park's barrier before its re-check of the assignment: no lost wake-up).
    /// With no set on either side a plain Assign is enough: a worker assigned to no set cannot move itself (its CAS
    /// expects the set it serves), and no set as the target means no program is left, so a self-move that races with
    /// it only miscounts programs already removed.
    /// </remarks>
    private static bool Reassign(Worker worker, WorkQueueSet? target, out WorkQueueSet? replaced)
    {
        while (true)
        {
            WorkQueueSet? current = worker.Assigned;
            replaced = current;
            if (ReferenceEquals(current, target))
            {
                return false;
            }

            if (current is null || target is null)
            {
                worker.Assign(target);
                return true;
            }

            // Worker.TrySelfAssign is the worker's CAS on its assignment; used here by the mover (see the remarks).
            if (worker.TrySelfAssign(current, target))
            {
                worker.TryWake();
                return true;
            }
        }
    }

    // Per slot, room for the serving and task counts of more programs than fit on the stack; grown (never shrunk or
    // written) under _lock, filled only by the worker of that slot.
    private int[][]? LendingBuffers(int programs)
    {
        if (programs <= StackallocPrograms)
        {
            return null;
        }

        if (_wideLendingBuffers is null || _wideLendingBuffers[0].Length < 2 * programs)
        {
            _wideLendingBuffers = new int[_pool.WorkerCount][];
            for (int i = 0; i < _wideLendingBuffers.Length; i++)
            {
                _wideLendingBuffers[i] = new int[2 * programs];
            }
        }

        return _wideLendingBuffers;
    }

    /// <summary>
    /// Idle lending (pool callback on a worker with nothing to do, before it parks, and in its park re-check: must not
    /// change anything). A worker away from the set the allocation in force gives its slot (on loan, or not yet moved)
    /// goes home: that ends a loan when the borrower has no task. A worker at home, with lending in force, asks the
    /// borrower rule (the policy's <see cref="IIdleLendingPolicy.ChooseBorrower"/>, else
    /// <see cref="IdleLending.ChooseBorrower"/>) with the scalabilities of the decision in force, each program's
    /// serving workers and available tasks. Null: stay (and park).
    /// </summary>
    /// <remarks>
    /// Runs on workers between tasks, several at once: no allocation (counts on the stack, or in the slot's own buffer)
    /// and no lock; O(programs) reads of the serving counts, plus each program's AvailableTasks (a sum over slots). The
    /// counts are racy: several idle workers may pick the same borrower, or a borrower whose tasks were just taken; a
    /// wrong pick costs one idle pass there and a return.
    /// </remarks>
    private WorkQueueSet? FindIdleWork(Worker worker, WorkQueueSet serving)
    {
        // Volatile read: pairs with Apply's publication, which comes before its moves.
        Applied applied = _applied;
        int slot = worker.Slot;
        WorkQueueSet? home = applied.Homes[slot];
        if (!ReferenceEquals(serving, home))
        {
            return home; // null: no program left, stay
        }

        ProgramHandle[] programs = applied.Programs;
        int m = programs.Length;
        if (!applied.Lending || m < 2)
        {
            return null;
        }

        int[]? wide = applied.WideBuffers?[slot];
        Span<int> servingWorkers = m <= StackallocPrograms ? stackalloc int[m] : wide.AsSpan(0, m);
        Span<int> availableTasks = m <= StackallocPrograms ? stackalloc int[m] : wide.AsSpan(m, m);
        for (int i = 0; i < m; i++)
        {
            servingWorkers[i] = programs[i].ServingWorkers;
            availableTasks[i] = programs[i].AvailableTasks;
        }

        int lender = applied.Owners[slot];
        int borrower;
        try
        {
            borrower = applied.Rule is { } rule
                ? rule.ChooseBorrower(applied.Scalabilities, servingWorkers, availableTasks, lender)
                : IdleLending.ChooseBorrower(applied.Scalabilities, servingWorkers, availableTasks, lender);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // A worker never dies of a policy's exception: no loan, and the rejection is reported like an allocation's.
            RejectBorrower($"it threw {ex.GetType().Name}: {ex.Message}");
            return null;
        }

        if (borrower == -1)
        {
            return null;
        }

        if (borrower < 0 || borrower >= m || borrower == lender)
        {
            RejectBorrower($"it chose program index {borrower} for an idle worker of program index {lender}; allowed: -1 or another index in 0..{m - 1}");
            return null;
        }

        ProgramHandle chosen = programs[borrower];
        return chosen.IsRemoved ? null : chosen.Queues;
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void RejectBorrower(string problem)
    {
        Interlocked.Increment(ref _rejected);
        Volatile.Write(ref _lastRejection, $"The partitioning policy's idle-lending rule returned an invalid borrower, so the worker was not lent: {problem}");
        RecordRejection();
    }

    // Pool callback on the worker's thread, after its CAS moved it from one set to another (a loan or a return).
    private void RecordLending(Worker worker, WorkQueueSet from, WorkQueueSet to)
    {
        var fromProgram = from.Tag as ProgramHandle;
        var toProgram = to.Tag as ProgramHandle;
        fromProgram?.AddServingWorkers(-1);
        toProgram?.AddServingWorkers(1);
        fromProgram?.CountMoveOut();
        toProgram?.CountMoveIn();

        // Going to the slot's home is a return, anything else a loan; except, while Apply is still moving workers, a move
        // from the slot's previous home to its new one: that is the allocation's own move, made by the worker just before
        // the mover (Apply publishes first), recorded with the allocation's reason and trigger, once (the mover then
        // finds the worker there). Racy against an Apply that publishes or finishes meanwhile: only the label can be off.
        Applied applied = _applied;
        int slot = worker.Slot;
        AllocationReason reason = AllocationReason.IdleLending;
        RepartitionTrigger trigger = RepartitionTrigger.IdleLending;
        if (ReferenceEquals(to, applied.Homes[slot]))
        {
            bool allocationMove = !applied.MovesDone && ReferenceEquals(from, applied.PreviousHomes[slot]);
            reason = allocationMove ? applied.Reasons[slot] : AllocationReason.LoanReturn;
            trigger = allocationMove ? applied.Trigger : RepartitionTrigger.IdleLending;
        }

        Timeline.Record(new AllocationMove(Stopwatch.GetTimestamp(), slot, ProcessorOf(slot), fromProgram?.Id, toProgram?.Id, reason, trigger));
        RecordMove(reason, trigger);
    }

    private static IReadOnlyList<IReadOnlyList<int>>? CacheGroupSlots(int[]? processors)
    {
        if (processors is null)
        {
            return null;
        }

        try
        {
            CpuTopology topology = CpuTopology.Detect();
            var groups = new List<IReadOnlyList<int>>();
            foreach (CacheGroup group in topology.CacheGroups)
            {
                int[] slots = Enumerable.Range(0, processors.Length).Where(s => group.Processors.Contains(processors[s])).ToArray();
                if (slots.Length > 0)
                {
                    groups.Add(slots);
                }
            }

            // Every slot in exactly one group, or no grouping at all.
            return groups.Sum(g => g.Count) == processors.Length && groups.Count > 1 ? groups : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException or InvalidOperationException or ArgumentException)
        {
            return null; // topology unknown: policies treat the machine as flat
        }
    }

    /// <summary>
    /// The applied allocation, published as one immutable object (read without the lock): the programs, their counts,
    /// the scalabilities the decision used, per slot its owner's index and set (its home), its home in the previous
    /// allocation and the reason it was given its home, the trigger, and the lending in force.
    /// </summary>
    private sealed record Applied(
        ProgramHandle[] Programs,
        IReadOnlyDictionary<int, int> CoresById,
        double[] Scalabilities,
        int[] Owners,
        WorkQueueSet?[] Homes,
        WorkQueueSet?[] PreviousHomes,
        AllocationReason[] Reasons,
        RepartitionTrigger Trigger,
        bool Lending,
        IIdleLendingPolicy? Rule,
        int[][]? WideBuffers)
    {
        private volatile bool _movesDone;

        /// <summary>Set by the mover once Apply has moved every worker to its home (written once, under _lock).</summary>
        public bool MovesDone
        {
            get => _movesDone;
            set => _movesDone = value;
        }

        public static Applied Empty(int workers)
            => new([], new Dictionary<int, int>(), [], Enumerable.Repeat(-1, workers).ToArray(), new WorkQueueSet?[workers], new WorkQueueSet?[workers], new AllocationReason[workers], RepartitionTrigger.Manual, false, null, null) { MovesDone = true };
    }
}
