// MultiProgramScheduler: one pool of pinned workers shared by several programs, each with its own queue set (thesis
// §5.3.3, Figures 5.15-5.17). The queue machinery is the standalone scheduler's (WorkQueueSet, WorkStealingDeque); only
// the supply of threads differs: a WorkerPool whose workers are *lent* to programs. Three parts, three files:
//
//   lifecycle (this file) - programs arrive (AddProgram) and leave (RemoveProgram, Dispose); the repartitioner thread
//                           ticks every RepartitionInterval and, with RepartitionOnDemand, on demand; dormant (no
//                           ticks) while every program is idle and a tick changed nothing (RepartitionLoop); a program
//                           that gets work with no worker assigned and none idle (RepartitionWhenStarved) also wakes it,
//                           as does a newcomer that gets work while holding fewer than every core, and it wakes by itself
//                           when a newcomer served first may have passed its quantum (short jobs first: NewcomerQuantum).
//   mover (Mover.cs)      - carries out a repartitioning under the lock: the Repartitioner (Partitioning, shared with
//                           the simulator) decides, the mover publishes the snapshot and moves workers.
//   lender (Lender.cs)    - the pool's owner: idle workers lend themselves, lent ones come home (return, recall).
//
// Roles
//   program tasks - producers and consumers of their program's queue set (protocol: WorkQueueSet.cs).
//   workers       - one per processor; each serves one program's set at a time; a move takes effect between two
//                   tasks (Worker.cs). No thread is created or destroyed by a move.
//   mover         - whoever holds _lock and repartitions (Mover.cs).
//   lender        - a worker deciding for itself, without the lock (Lender.cs).
//
// Invariants (tests: MultiProgramSchedulerTests; lending: IdleLendingInMultiProgramSchedulerTests; schedules:
// tests/DivCon.Tests/Exploration)
//   - Every task queued to a program runs exactly once, whatever moves happen (a deque is only drained by its owner,
//     into its own program's global queue; a running task is never interrupted).
//   - A worker's assignment is one field: it serves at most one program; while programs exist, every allocation
//     assigns every worker (Repartitioner: Σ shares = cores), and the counts sum to the pool size.
//   - Each program's serving count equals the workers assigned to it once the moves in flight are counted.
//
// Removal of a program, in order: (1) under _lock mark it removing and close its queues to outside producers;
// (2) with CancelTasks, cancel its token; (3) outside the lock, wait until its outstanding count is zero
// (WorkQueueSet.IsIdle: nothing queued or running) — it keeps its workers meanwhile, and a removing program with
// tasks outstanding is always given a worker (the Repartitioner's removal override; required: removal always
// finishes); if every worker it holds is on loan, a repartitioning ends the loans; (4) under _lock remove it and
// repartition (trigger ProgramExit), which moves its workers to the others.
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
// Telemetry never breaks the mechanism: a MeterListener callback that throws inside Counter.Add (on the mover's path,
// or on a worker's path when it lends itself) is caught and counted (TelemetryErrors).
//
// Dispose, in order: (1) refuse new programs; (2) remove every program as in DisposeMode (all closed and canceled
// first, then waited for; periodic repartitionings go on meanwhile); (3) stop the repartitioner thread and join it;
// (4) shut the pool down and join every worker; (5) dispose the meter. Called on one of the pool's own workers,
// Dispose runs these steps on a new thread and returns (waiting would wait for the calling task itself).
//
// Explored schedules: the repartitioner thread is started under the explorer like the workers, and the lock is taken
// through EnterLock, which tells the explorer it may block, so the mover, the repartitioner and the lifecycle's
// callers can interleave at every yield point. With ticks on, the tick's timed wait is the explorer's too (whether the
// timeout fires before the signal: ScheduleHook.TimedWait), so that dormancy and its wake-ups are explored
// (tests/DivCon.Tests/Exploration/DormancyExplorationTests.cs); with ticks off the thread waits for a demand or the stop.
//
// Rejected: a TaskScheduler per program with its own threads plus OS-level priorities (oversubscription, the
// thesis's baseline problem); moving a worker in the middle of a task (a task's thread must not change); asking
// the worker to pick its next program itself (decisions would spread over P threads and could not be logged with
// the policy's reason in one place). Idle lending is the one, bounded, exception (Lender.cs).
using System.Diagnostics;
using DivCon.Partitioning;
using DivCon.Scheduling;

namespace DivCon.Multiprogramming;

/// <summary>
/// Shares one pool of worker threads, one pinned to each allowed processor, among several task-parallel programs.
/// Each program gets its own work-stealing <see cref="TaskScheduler"/>; a partitioning policy decides how many (and
/// which) workers each program holds, re-evaluated on every program arrival and exit and every interval; with the
/// default policy an idle worker serves another program until its own has work again.
/// </summary>
public sealed partial class MultiProgramScheduler : IDisposable
{
    private readonly object _lock = new();
    private readonly WorkerPool _pool;
    private readonly int[]? _processors;
    private readonly List<ProgramHandle> _programs = [];       // under _lock
    private readonly Thread _repartitioner;
    private readonly AutoResetEvent _tickSignal = new(false);
    private readonly TimeSpan _interval;
    private readonly ProgramRemoval _disposeMode;
    private readonly bool _demandDriven;
    private readonly bool _serveStarved;
    private readonly long _starvedGapTicks;                     // Stopwatch ticks between two starvation decisions
    private readonly TimeSpan _newcomerQuantum;                 // short jobs first (NewcomerPriority); zero: off
    private readonly TimeSpan _newcomerRecheck;                 // least wait for a newcomer's deadline: the starved gap, at least 1 ms
    private int _deadlineMoved;                                 // 1: a decision on another thread set a newcomer deadline (Interlocked; RepartitionLoop)
    private long _lastDemandDecision;                           // repartitioner thread only
    private readonly Mover _mover;
    private IPartitioningPolicy _policy;                        // under _lock
    private int _nextProgramId;                                 // under _lock
    private int _state;                                         // 0 running, 1 disposing (Interlocked)
    private volatile bool _stopRepartitioner;                   // set by DisposeCore after the programs are gone
    private volatile bool _repartitionerExited;                 // the repartitioner thread's last write
    private int _demandPending;                                 // 1 while a demand-driven decision is pending (Interlocked)
    private int _scalabilitySets;                               // scalabilities set so far (Interlocked by setters; read by the repartitioner: TryGoDormantNeedsLock)
    private int _demandEdgePending;                             // 1 while that decision includes a change of demand (RepartitionOnDemand; Interlocked)
    private long _rejected;
    private long _repartitions;
    private long _demandRepartitions;
    private long _gappedDemandRepartitions;
    private long _intervalRepartitions;
    private string? _lastRejection;
#if DEBUG
    /// <summary>
    /// Tests only: a tick goes dormant without the re-check after its mark (TryGoDormantNeedsLock), so that the explorer
    /// can show the lost wake-up that causes (DormancyExplorationTests). Never set outside that test.
    /// </summary>
    internal static bool s_skipDormantRecheckForTests;

    private static bool SkipDormantRecheck => s_skipDormantRecheckForTests;

    private volatile Thread? _lockHolder;                       // the explorer's view of _lock (EnterLock); holder only
    private int _lockDepth;                                     // the holder's re-entries
#else
    private const bool SkipDormantRecheck = false;
#endif

    /// <summary>Creates a scheduler with one pinned worker per core of the CPU budget (<see cref="CpuBudget.Detect"/>) and the default policy.</summary>
    public MultiProgramScheduler()
        : this(new MultiProgramSchedulerOptions())
    {
    }

    /// <summary>Creates a scheduler as described by <paramref name="options"/>.</summary>
    /// <exception cref="ArgumentException">Invalid processors, interval, newcomer quantum or timeline capacity; the message says what is allowed.</exception>
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

        if (options.NewcomerQuantum < TimeSpan.Zero || options.NewcomerQuantum > TimeSpan.FromSeconds(1))
        {
            throw new ArgumentOutOfRangeException(nameof(options), options.NewcomerQuantum, "NewcomerQuantum must be between 0 (off) and 1 s.");
        }

        if (options.TimelineCapacity < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(options), options.TimelineCapacity, "TimelineCapacity must be at least 1.");
        }

        Budget = ResolveBudget(options);
        int[] processors = ThreadAffinity.ValidateProcessors(
            options.Processors ?? Budget.SelectProcessors(), nameof(options.Processors)).ToArray();
        BudgetWarning = Budget.CheckWorkers(processors.Length);
        PoolPinning pinning = options.Unpinned
            ? PoolPinning.Unpinned(processors.Length, processors, "Unpinned was requested.")
            : PoolPinning.Pinned(processors, options.BestEffortPinning);
        _pool = PoolConstruction.Build(
            options.ThreadName, pinning, options.StealingScope, options.StealingGroups, options.StealingTopology,
            options.CompensateBlocking, options.CompensationDelay, options.MaxCompensatingWorkers, nameof(options));
        _policy = options.Policy ?? new WorkConservingPolicy();
        _interval = options.RepartitionInterval;
        _disposeMode = options.DisposeMode;
        _demandDriven = options.RepartitionOnDemand;
        _pool.DemandDriven = _demandDriven;
        if (options.StarvedRepartitionGap < TimeSpan.Zero || options.StarvedRepartitionGap > TimeSpan.FromSeconds(1))
        {
            throw new ArgumentOutOfRangeException(nameof(options), options.StarvedRepartitionGap, "StarvedRepartitionGap must be between 0 and 1 s.");
        }

        _newcomerQuantum = options.NewcomerQuantum;
        _newcomerRecheck = options.StarvedRepartitionGap > TimeSpan.FromMilliseconds(1) ? options.StarvedRepartitionGap : TimeSpan.FromMilliseconds(1);
        _serveStarved = options.RepartitionWhenStarved;
        _starvedGapTicks = (long)(options.StarvedRepartitionGap.TotalSeconds * Stopwatch.Frequency);
        _pool.TracksStarvation = _serveStarved;

        // The lender is the pool's owner from the start: it also brings lent workers home and records compensation,
        // whatever the lending in force (the mover switches lending's wake-ups with the policy).
        _mover = new Mover(
            this, _pool, new Repartitioner(processors.Length, CacheGroupSlots(pinning.Pinner is null ? null : processors), _newcomerQuantum), options.IdleLending, options.ScalabilityEstimation);
        _pool.Owner = new Lender(this, _mover, processors.Length);
        UnpinnedReason = PoolConstruction.Start(_pool, pinning, options.BestEffortPinning);
        _processors = UnpinnedReason is null && pinning.Pinner is not null ? processors : null;
        Timeline = new AllocationTimeline(options.TimelineCapacity, processors.Length, Enumerable.Range(0, processors.Length).Select(ProcessorOf).ToArray());
        _meter = CreateMeter();
        _repartitioner = new Thread(RepartitionLoop) { IsBackground = true, Name = "DivCon repartitioner" };
        ScheduleHook.Starting(_repartitioner);
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

    /// <summary>Decisions the policy returned that were rejected as invalid (or that threw), borrower choices included.</summary>
    public long RejectedAllocations => Interlocked.Read(ref _rejected);

    /// <summary>Why the last rejected decision was rejected; null if none was.</summary>
    public string? LastRejection => Volatile.Read(ref _lastRejection);

    /// <summary>Repartitionings carried out (policy calls, valid or not).</summary>
    public long Repartitions => Interlocked.Read(ref _repartitions);

    /// <summary>Repartitionings started by a change of demand (<see cref="MultiProgramSchedulerOptions.RepartitionOnDemand"/>) or by a starved program (<see cref="MultiProgramSchedulerOptions.RepartitionWhenStarved"/>).</summary>
    public long DemandRepartitions => Interlocked.Read(ref _demandRepartitions);

    /// <summary>
    /// The demand repartitionings that kept the starved gap (a starved program's decision, no change of demand in it):
    /// consecutive ones are at least <see cref="MultiProgramSchedulerOptions.StarvedRepartitionGap"/> apart.
    /// </summary>
    internal long GappedDemandRepartitions => Interlocked.Read(ref _gappedDemandRepartitions);

    /// <summary>The periodic ticks' repartitionings (trigger <see cref="RepartitionTrigger.Interval"/>).</summary>
    internal long IntervalRepartitions => Interlocked.Read(ref _intervalRepartitions);

    /// <summary>The programs registered now, in arrival order.</summary>
    public IReadOnlyList<ProgramHandle> Programs => _mover.Snapshot.Programs;

    /// <summary>
    /// The partitioning policy. Setting it repartitions at once; if the new policy's first decision is invalid, the
    /// previous policy and allocation are kept and <see cref="InvalidOperationException"/> says why.
    /// </summary>
    public IPartitioningPolicy Policy
    {
        get
        {
            using (EnterLock())
            {
                return _policy;
            }
        }

        set
        {
            ArgumentNullException.ThrowIfNull(value);
            using (EnterLock())
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
    /// <param name="scalability">
    /// Its speedup alone on the whole machine; positive and finite. Null (the default): estimated online while it runs
    /// (<see cref="MultiProgramSchedulerOptions.ScalabilityEstimation"/>; 1 until there is an estimate, or when
    /// estimation is off). A number given here always wins over the estimate.
    /// </param>
    /// <param name="scalabilityTable">Optional speedups at several core counts; given, it wins over the estimate too.</param>
    /// <exception cref="ObjectDisposedException">The scheduler has been disposed.</exception>
    public ProgramHandle AddProgram(string name, double? scalability = null, ScalabilityTable? scalabilityTable = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        if (scalability is double given)
        {
            ValidateScalability(given, nameof(scalability));
        }

        using (EnterLock())
        {
            ThrowIfDisposed();
            var program = new ProgramHandle(this, _nextProgramId++, name, scalability, scalabilityTable, _pool, ProcessorOf);
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
        CheckRemoval(program, mode);

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

    // The argument checks RemoveProgram and RemoveProgramAsync share.
    private void CheckRemoval(ProgramHandle program, ProgramRemoval mode)
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
    }

    /// <summary>Runs the policy now (trigger <see cref="RepartitionTrigger.Manual"/>).</summary>
    /// <exception cref="InvalidOperationException">The policy's decision was invalid; the allocation in force is kept.</exception>
    public void Repartition()
    {
        using (EnterLock())
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
        using (EnterLock())
        {
            AllocationSnapshot snapshot = _mover.Snapshot;
            var workers = new int?[_pool.WorkerCount];
            for (int i = 0; i < workers.Length; i++)
            {
                workers[i] = _pool.Workers[i].Assigned?.Owner?.Id;
            }

            return new MultiProgramSnapshot(
                Stopwatch.GetTimestamp(),
                workers,
                snapshot.Programs.ToDictionary(p => p.Id, p => snapshot.CoresOf(p.Id)),
                snapshot.Programs.ToDictionary(p => p.Id, p => p.AvailableTasks),
                _pool.Workers.Select(w => w.ServingForReaders?.Owner?.Id).ToArray())
            {
                BudgetWarning = BudgetWarning,
                ServedByProgram = snapshot.Programs.ToDictionary(p => p.Id, p => p.ServedWorkers),
                ScalabilityByProgram = snapshot.Programs.ToDictionary(p => p.Id, p => p.ScalabilityState),
                PendingMoves = PendingMoves(),
                WorkerHomes = snapshot.Owners.Select(o => o >= 0 ? snapshot.Programs[o].Id : (int?)null).ToArray(),
                WorkerThreadIds = _pool.Workers.Select(w => w.OsThreadId).ToArray(),
            };
        }
    }

    // Workers whose published serving set differs from their assignment (a move waiting on the task in hand), with ages.
    private PendingMove[] PendingMoves()
    {
        long now = Stopwatch.GetTimestamp();
        var pending = new List<PendingMove>();
        foreach (Worker worker in _pool.Workers)
        {
            WorkQueueSet? assigned = worker.Assigned;
            WorkQueueSet? serving = worker.ServingForReaders;
            if (!ReferenceEquals(assigned, serving) && serving is not null && serving.IsRunningTask(worker.Slot))
            {
                long at = worker.AssignedAt;
                pending.Add(new PendingMove(worker.Slot, serving.Owner?.Id, assigned?.Owner?.Id, Stopwatch.GetElapsedTime(Math.Min(at, now), now)));
            }
        }

        return [.. pending];
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

    /// <summary>Waits until every thread of a disposed scheduler has exited; false on timeout.</summary>
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

    internal int CoresOf(ProgramHandle program) => _mover.Snapshot.CoresOf(program.Id);

    internal int? ProcessorOf(int slot) => _processors?[slot];

    /// <summary>Lender: the policy's borrower rule gave an invalid answer (counted like a rejected allocation).</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    internal void RejectBorrower(string problem)
    {
        Interlocked.Increment(ref _rejected);
        Volatile.Write(ref _lastRejection, $"The partitioning policy's idle-lending rule returned an invalid borrower, so the worker was not lent: {problem}");
        RecordRejection();
    }

    /// <summary>
    /// Lender: a program's demand changed. With demand-driven repartitioning, or when <paramref name="program"/> got work,
    /// or lost a worker while it had work (<paramref name="starvedOnly"/>), while no worker is assigned to it and none is
    /// idle to lend itself (RepartitionWhenStarved: a starved program),
    /// wakes the repartitioner thread unless a demand decision is already pending (Interlocked: one Set per decision,
    /// however many programs change meanwhile).
    /// </summary>
    internal void OnDemandChanged(ProgramHandle? program, bool wantsWorkers, bool starvedOnly = false)
    {
        bool edge = _demandDriven && !starvedOnly;
        if (!edge && !IsStarved(program, wantsWorkers) && !IsShortNewcomer(program, wantsWorkers))
        {
            return;
        }

        if (edge)
        {
            // Before the pending mark below (its Interlocked.Exchange orders the two); the repartitioner clears it after
            // taking the mark. A change of demand is served at once, a starved program's decision after the gap.
            Interlocked.Exchange(ref _demandEdgePending, 1);
        }

        ScheduleHook.Yield("demand.signal");
        if (Interlocked.Exchange(ref _demandPending, 1) == 0)
        {
            _tickSignal.Set();
        }
    }

    // A producer's path (the set's first task while none of its workers was parked): volatile reads only. Racy: a worker
    // assigned meanwhile makes the decision a quiet one (Mover: nothing changes, nothing published).
    private bool IsStarved(ProgramHandle? program, bool wantsWorkers)
        => _serveStarved && wantsWorkers && program is { IsRemoving: false } && program.ServingWorkers == 0 && !_pool.HasParkedLender;

    // Short jobs first: a newcomer (as of the last decision) that got work while the allocation in force gives it fewer
    // than every core is served first at once, not at the next tick. Volatile reads only (the producer's path, on the
    // demand edge); racy like IsStarved: a stale answer costs one quiet decision, or leaves the newcomer to the tick.
    private bool IsShortNewcomer(ProgramHandle? program, bool wantsWorkers)
        => _newcomerQuantum > TimeSpan.Zero && wantsWorkers && program is { IsRemoving: false, IsNewcomer: true } && CoresOf(program) < _pool.WorkerCount;

    private bool AnyStarvedNeedsLock()
    {
        foreach (ProgramHandle p in _programs)
        {
            if (!p.IsRemoving && p.ServingWorkers == 0 && p.AvailableTasks > 0 && !_pool.HasParkedLender)
            {
                return true;
            }
        }

        return false;
    }

    private void ThrowIfDisposed()
    {
        if (Volatile.Read(ref _state) != 0)
        {
            throw new ObjectDisposedException(nameof(MultiProgramScheduler), "The MultiProgramScheduler has been disposed: programs can no longer be added or changed.");
        }
    }

    private void BeginRemoval(ProgramHandle program, ProgramRemoval mode)
    {
        using (EnterLock())
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

        using (EnterLock())
        {
            // Gives it a worker now if the policy had left it none (see the header).
            EnsureServedNeedsLock(program);
        }
    }

    private void EnsureServedNeedsLock(ProgramHandle program)
    {
        // No worker serving it now: none allocated, or every one it holds is on loan. A repartitioning (not a periodic one:
        // those keep loans) gives it one (the Repartitioner's removal override) and moves every worker home.
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

        using (EnterLock())
        {
            _programs.Remove(program);
            _mover.ProgramRemovedNeedsLock(program.Id);
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
            // workers are on loan to programs whose tasks do not end.
            using (EnterLock())
            {
                EnsureServedNeedsLock(program);
            }
        }
    }

    private void DisposeCore()
    {
        ProgramHandle[] programs;
        using (EnterLock())
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
            using (EnterLock())
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
        ScheduleHook.BlockUntil(() => _repartitionerExited, "repartitioner.join");
        _repartitioner.Join();
        _pool.BeginShutdown();
        _pool.Join();

        // Required: after the workers are gone (a worker running dry signals a demand through it, OnDemandChanged).
        _tickSignal.Dispose();
        _meter.Dispose();
    }

    /// <summary>
    /// A scalability was set (ProgramHandle.Scalability, after its write): wakes the repartitioner thread if it is dormant
    /// (see <see cref="RepartitionLoop"/>), so that a decision sees the new value. Any thread; two Interlocked operations.
    /// </summary>
    /// <remarks>
    /// Required: no set left without its decision. The count first: a tick whose decision read the old value, and which
    /// marks itself dormant only after the exchange below found no mark, sees the count changed in its re-check
    /// (TryGoDormantNeedsLock: mark, process-wide barrier, count) and ticks on. Until 2026-11-24 the re-check looked
    /// at the programs' tasks only, and such a tick went dormant with the set never decided upon (found by
    /// DormancyExplorationTests, scalability scenario: Focused seed 65, StickyRandom seed 2060).
    /// </remarks>
    internal void WakeRepartitioner()
    {
        ScheduleHook.Yield("dormant.scalability-set");
        Interlocked.Increment(ref _scalabilitySets); // full fence: pairs with the repartitioner's barrier between its mark and its read of the count
        ScheduleHook.Yield("dormant.scalability-counted");
        if (_pool.TryClearOwnerDormant())
        {
            ScheduleHook.Yield("dormant.cleared");
            EndDormancy();
        }
    }

    /// <summary>The dormant mark was cleared by the caller (WorkerPool, Lender.OnWorkAfterDormant): wakes the thread.</summary>
    internal void EndDormancy()
    {
        try
        {
            _tickSignal.Set();
        }
        catch (ObjectDisposedException)
        {
            // Disposed meanwhile (a late producer or a scalability set after Dispose): no repartitioner to wake.
        }
    }

    /// <summary>
    /// The repartitioner thread: a decision every RepartitionInterval, or at once on a demand.
    /// </summary>
    /// <remarks>
    /// Dormancy (idle cost, issue 18: an idle scheduler's tick thread does not wake 10 times a second). A tick that
    /// published nothing (the decision changed no owner: Mover's quiet path) while every program was idle (nothing queued
    /// or running: IsIdle) would be repeated unchanged by every later tick until something changes, because a decision is
    /// a pure function of the loads, and idle loads do not change. So the thread then waits without a timeout until
    /// (a) a task is queued on any program (WorkerPool.ArmBlockingMonitor, on every producer's signal), (b) a
    /// scalability is set (ProgramHandle.Scalability: WakeRepartitioner counts it, and the re-check below reads the
    /// count as well as the programs), (c) a demand (OnDemandChanged) or (d) the stop; arrivals,
    /// removals, policy changes and explicit Repartition calls decide on their own thread, and a new program is idle
    /// until its first task, which is (a). Required: no lost wake-up, the blocking monitor's pair: this thread writes the
    /// dormant mark, executes a process-wide barrier, then re-checks every program; a producer publishes its task, then
    /// reads the mark. Either the re-check sees the task (no dormancy) or the producer sees the mark, clears it and sets
    /// the signal, which the AutoResetEvent keeps until the wait below. Cost: one volatile read per queued task; gain: an
    /// idle scheduler wakes nobody (measured: `idle-cost` in benchmarks/DivCon.Benchmarks). Not dormant when the
    /// interval is infinite (no ticks to save).
    /// </remarks>
    private void RepartitionLoop()
    {
        ScheduleHook.Yield("repartitioner.start");
        bool dormant = false;
        bool periodic = _interval != Timeout.InfiniteTimeSpan;
        long intervalTicks = periodic ? (long)(_interval.TotalSeconds * Stopwatch.Frequency) : 0;

        // When the next periodic tick is due (Stopwatch). Required: only a tick moves it. Every other wake (a starved
        // program's decision, a change of demand, a newcomer's deadline) leaves it where it was. Until 2026-11-24 any such
        // wake started a full interval. With more busy programs than cores a starved decision follows every moving one a
        // gap later, so the ticks stopped for as long as the rotation went on. With them stopped, the online estimator
        // (which counts only ticks) went without samples, and the decisions by available tasks every interval were not taken.
        long nextTick = 0;
        while (true)
        {
            // Under the explorer with ticks off, the wait below is a block until a demand or the stop (a newcomer's
            // deadline is not explored). With ticks on, see the wait.
            if (!periodic)
            {
                ScheduleHook.BlockUntil(() => _stopRepartitioner || Volatile.Read(ref _demandPending) != 0, "repartitioner.wait");
            }

            long waitStart = Stopwatch.GetTimestamp();
            nextTick = periodic && nextTick == 0 ? waitStart + intervalTicks : nextTick;
            TimeSpan timeout = dormant || !periodic ? Timeout.InfiniteTimeSpan : UntilTimestamp(nextTick, waitStart);
            Interlocked.Exchange(ref _deadlineMoved, 0); // full fence, before reading the deadline: pairs with the mark in RepartitionNeedsLock

            // Short jobs first: wake when the earliest newcomer served first may pass its quantum (Mover.NewcomerDeadline),
            // so that the others get their cores back then, not at the next tick. No deadline while dormant (all idle).
            // Read once per wait: a deadline set meanwhile by a decision on another thread (an arrival, an exit) is
            // seen at this thread's next wake; newcomers are served first mostly by this thread's demand decisions.
            bool byDeadline = false;
            long deadline = _mover.NewcomerDeadline;
            if (!dormant && deadline != long.MaxValue)
            {
                // At least the starved gap (1 ms at least): a newcomer stuck just short of its quantum (its tasks
                // blocked) is re-decided at that pace, never in a tight loop.
                TimeSpan untilDeadline = UntilTimestamp(deadline, waitStart);
                untilDeadline = untilDeadline < _newcomerRecheck ? _newcomerRecheck : untilDeadline;
                if (timeout == Timeout.InfiniteTimeSpan || untilDeadline < timeout)
                {
                    timeout = untilDeadline;
                    byDeadline = true;
                }
            }

            // Under the explorer with ticks on, the timeout firing is the explorer's choice (the thread stays runnable while
            // the timeout is finite, and is blocked until the signal while dormant), so that schedules include a tick
            // that goes dormant racing a producer (tests/DivCon.Tests/Exploration/DormancyExplorationTests.cs).
            bool explored = false;
            if (periodic)
            {
                ScheduleHook.TimedWait(_tickSignal, timeout != Timeout.InfiniteTimeSpan, "repartitioner.timed-wait", ref explored);
            }

            bool signaled = _tickSignal.WaitOne(explored ? TimeSpan.Zero : timeout);
            dormant = false;
            if (_stopRepartitioner)
            {
                break;
            }

            // A pending demand is served first (the tick's decision would be the same decision, taken later), unless the
            // tick is due: then the tick's decision serves it. The wait for the tick ending (a timeout that was not the
            // deadline's) is the tick even if the wait rounded it a little short.
            bool demand = Interlocked.Exchange(ref _demandPending, 0) != 0;
            bool tick = periodic && ((!signaled && !byDeadline) || Stopwatch.GetTimestamp() >= nextTick);
            bool newcomerDue = !signaled && byDeadline && !tick;
            if (!tick && !demand && !newcomerDue)
            {
                // Signaled with nothing to serve: a deadline set by a decision on another thread (wait again for it), a
                // stale signal with ticks off, or a wake that asks for a decision now (a task queued after dormancy, a
                // scalability set), which is a tick: the next one is a full interval later.
                if (Interlocked.Exchange(ref _deadlineMoved, 0) != 0 || !periodic)
                {
                    continue;
                }

                tick = true;
            }

            // Racy by design (a latency, never a lost decision): a change of demand marked between the two exchanges
            // is served by this decision or, after one gap, by the next.
            bool edge = Interlocked.Exchange(ref _demandEdgePending, 0) != 0;
            if (demand && !edge && !tick)
            {
                // A starved program's decision (RepartitionWhenStarved), rate-limited: at most one per gap, so that
                // programs taking a core from each other in turn rotate at that pace. Also with RepartitionOnDemand:
                // the follow-up below (a moving decision that left a program starved) would otherwise start the next
                // decision at once, and with more busy programs than cores every decision rotates a core, so the
                // repartitioner decided back to back (thousands of decisions in 500 ms on 2 cores before this gap
                // applied: DemandDrivenTests; docs/simulation.md, demand-partitioned). Whole milliseconds rounded up:
                // Thread.Sleep truncates, and a gap of 2 ms slept 1 ms until 2026-11-24.
                long wait = _lastDemandDecision + _starvedGapTicks - Stopwatch.GetTimestamp();
                if (wait > 0)
                {
                    Thread.Sleep((int)Math.Ceiling(wait * 1000.0 / Stopwatch.Frequency));
                }
            }

            using (EnterLock())
            {
                if (_stopRepartitioner)
                {
                    break;
                }

                if (tick)
                {
                    Interlocked.Increment(ref _intervalRepartitions);
                    nextTick = Stopwatch.GetTimestamp() + intervalTicks;
                }
                else if (demand)
                {
                    Interlocked.Increment(ref _demandRepartitions);
                    if (!edge)
                    {
                        Interlocked.Increment(ref _gappedDemandRepartitions);
                    }
                }

                if (demand)
                {
                    // Also when the tick served it: the next starved decision keeps the gap from this one.
                    _lastDemandDecision = Stopwatch.GetTimestamp();
                }

                AllocationSnapshot before = _mover.Snapshot;
                int scalabilitySets = Volatile.Read(ref _scalabilitySets); // before the decision reads the scalabilities
                RepartitionNeedsLock(tick ? RepartitionTrigger.Interval : RepartitionTrigger.Demand);
                dormant = ReferenceEquals(before, _mover.Snapshot) && periodic && TryGoDormantNeedsLock(scalabilitySets);
            }
        }

        _pool.TryClearOwnerDormant(); // no dormant mark outlives the thread
        _repartitionerExited = true;
        ScheduleHook.Exiting();
    }

    private static TimeSpan UntilTimestamp(long due, long now)
        => due <= now ? TimeSpan.Zero : TimeSpan.FromSeconds(Math.Min((double)(due - now) / Stopwatch.Frequency, TimeSpan.FromHours(1).TotalSeconds));

    // After a quiet tick (see RepartitionLoop): marks the repartitioner dormant unless a program has work or a scalability
    // was set since the tick's decision read them (scalabilitySets: the count before it). Required: the mark, then the
    // process-wide barrier, then the re-check of both (the pairs with WorkerPool.ArmBlockingMonitor and WakeRepartitioner).
    private bool TryGoDormantNeedsLock(int scalabilitySets)
    {
        AssertLockHeld();
        if (!AllIdleNeedsLock() || Volatile.Read(ref _scalabilitySets) != scalabilitySets)
        {
            return false;
        }

        ScheduleHook.Yield("dormant.mark");
        _pool.SetOwnerDormant();
        Interlocked.MemoryBarrierProcessWide();
        ScheduleHook.Yield("dormant.recheck");
        if (SkipDormantRecheck || (AllIdleNeedsLock() && Volatile.Read(ref _scalabilitySets) == scalabilitySets))
        {
            // No tick while dormant: the first tick after waking only records the counters, so the dormant spell is
            // not taken for a tick in which the programs were served for a moment out of a long interval.
            _mover.RestartObservationNeedsLock();
            return true;
        }

        // Work or a scalability arrived meanwhile: tick on. If its producer cleared the mark first, its signal only shortens
        // one wait.
        ScheduleHook.Yield("dormant.abort");
        _pool.TryClearOwnerDormant();
        return false;
    }

    private bool AllIdleNeedsLock()
    {
        foreach (ProgramHandle p in _programs)
        {
            if (!p.Queues.IsIdle())
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Asks the mover to repartition. Returns the rejection message, or null.</summary>
    private string? RepartitionNeedsLock(RepartitionTrigger trigger)
    {
        AssertLockHeld();
        Interlocked.Increment(ref _repartitions);
        ProgramHandle[] programs = [.. _programs];
        IPartitioningPolicy policy = _policy;
        AllocationSnapshot before = _mover.Snapshot;
        RepartitionResult result = _mover.RepartitionNeedsLock(policy, programs, trigger);

        // A newcomer served first by a decision on another thread (an arrival, an exit, a policy change): the
        // repartitioner thread waits on an older deadline (or none), so it is woken to wait again for this one. Required:
        // the mark before the Set (the thread clears the mark before reading the deadline, then takes a signaled wake
        // with the mark as a new wait), so the newcomer's priority is dropped when it passes the quantum even with no tick.
        if (!ReferenceEquals(Thread.CurrentThread, _repartitioner) && _mover.NewcomerDeadline != long.MaxValue)
        {
            Interlocked.Exchange(ref _deadlineMoved, 1);
            _tickSignal.Set();
        }

        // A decision that moved workers (any trigger) may have left a program with queued tasks and no worker (or not
        // served the one that asked, when several wait): one more demand decision, after the gap. Not after a quiet
        // decision, which would only repeat itself.
        if (_serveStarved && !ReferenceEquals(before, _mover.Snapshot) && AnyStarvedNeedsLock())
        {
            Interlocked.Exchange(ref _demandPending, 1);
            _tickSignal.Set();
        }

        if (result.Rejection is null)
        {
            return null;
        }

        string message = $"The partitioning policy '{policy.Name}' returned an invalid allocation on a {trigger} repartitioning, so it was rejected: {result.Rejection}";
        Interlocked.Increment(ref _rejected);
        Volatile.Write(ref _lastRejection, message);
        RecordRejection();
        return result.Outcome == RepartitionOutcome.FellBack
            ? message + " Equal shares were applied instead, because the programs changed."
            : message + " The allocation in force is kept.";
    }

    // The scheduler's lock, taken so that the explorer knows a controlled thread may block on it (see the header): only
    // one controlled thread runs at a time, so once the wait says the lock is free, Monitor.Enter does not block.
    private LockScope EnterLock()
    {
#if DEBUG
        // The thread is read here, not in the condition: the explorer evaluates the condition on whichever thread yields.
        Thread me = Thread.CurrentThread;
        ScheduleHook.BlockUntil(() => _lockHolder is null || _lockHolder == me, "lock.enter");
        Monitor.Enter(_lock);
        if (_lockHolder == me)
        {
            _lockDepth++;
        }
        else
        {
            _lockHolder = me;
            _lockDepth = 1;
        }
#else
        Monitor.Enter(_lock);
#endif
        return new LockScope(this);
    }

    [Conditional("DEBUG")]
    private void AssertLockHeld() => Debug.Assert(Monitor.IsEntered(_lock));

    private readonly struct LockScope(MultiProgramScheduler owner) : IDisposable
    {
        public void Dispose()
        {
#if DEBUG
            if (--owner._lockDepth == 0)
            {
                owner._lockHolder = null;
            }
#endif
            Monitor.Exit(owner._lock);
        }
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
}
