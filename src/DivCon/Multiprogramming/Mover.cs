// The mover: carries out a repartitioning. It reads every program's load, asks the Repartitioner (which asks the
// policy, validates, falls back, rotates, places and serves removing programs: Partitioning/Repartitioner.cs, the
// same code the simulator calls), then moves the workers whose slot changed owner. It never decides. It gives each load
// the program's attained service (busy time: the time its tasks ran, the service a least-attained-service rule counts;
// core time held would also count a worker's spinning for work it does not have) for the short-job step.
//
// Roles
//   mover   - the thread running a repartitioning, always under the scheduler's lock (the repartitioner thread on a
//             tick or a demand, or the caller of AddProgram / RemoveProgram / Repartition / Policy), so decisions are
//             taken by one thread at a time.
//   workers - read their assignment with one volatile read between tasks (Worker.cs) and, when lent, the snapshot
//             (Lender.cs).
//
// Publication (required: a move by the mover always wins over a self-move): the new AllocationSnapshot is published
// (one volatile write) before any worker is moved, and then every worker's assignment is replaced by CAS (Reassign),
// retrying until the mover's value is in: a move, or for a worker already where the decision puts it a new token for
// the same set (WorkerAssignment: an immutable object per assignment). A self-move CASes the token it read before it
// read the snapshot (WorkerPool.TryFindIdleWork, TryRecall). So a self-move decided on an older snapshot either comes
// before the mover's CAS (which then replaces it) or fails: the decision's CAS comes after its publication, hence after
// the worker's token read, and changes the token. Without the token (a CAS on the set alone) a worker that read the
// snapshot of a decision moving it from a to b could CAS a to b after that decision and the next one had moved it to b
// and back (ABA), and serve b against the allocation; without the renewal on an unchanged slot, a lent worker's return
// decided on the older snapshot could land after a decision that keeps it where it is. A worker that reads the new
// snapshot while its assignment still says otherwise treats it as away from home and goes there itself, which is
// where the mover puts it anyway. Published after the moves, a worker already moved could read the old homes, take its
// new set for a loan, and move itself back over the mover's decision.
// Cost of the tokens: one allocation per worker per published decision (quiet decisions publish nothing), beside the
// snapshot's own arrays of one entry per worker.
//
// Exact serving counts (required by the borrower rule): every assignment change is a successful CAS (or the only write,
// when one side is no set), counted once by the thread that made it, against the set it really replaced.
//
// A periodic (or demand) decision that changes nothing (same programs, scalabilities, owners and lending) publishes
// nothing and touches no worker: an idle scheduler's tick wakes nobody (measured: `idle-cost` in
// benchmarks/DivCon.Benchmarks). Such a tick does not end loans either: loans end by recall, by the borrower running
// dry, or at a decision that changes something (or any arrival, exit, policy change or explicit Repartition), which
// moves every worker to its home.
using System.Diagnostics;
using DivCon.Partitioning;
using DivCon.Partitioning.Estimation;
using DivCon.Scheduling;

namespace DivCon.Multiprogramming;

/// <summary>Applies repartitionings (see the file header); every member needs the scheduler's lock.</summary>
internal sealed class Mover
{
#if DEBUG
    /// <summary>
    /// Tests only: Apply keeps the demand mark of a program it leaves with no worker (the code before the reset), so that
    /// the explorer can show the stranded task it caused. Never set outside the explorer test.
    /// </summary>
    internal static bool s_keepDemandMarksForTests;

    private static bool KeepDemandMarks => s_keepDemandMarksForTests;
#else
    private const bool KeepDemandMarks = false;
#endif

    // Programs whose serving and task counts a lender keeps on its stack; more use per-slot buffers (Lender.cs).
    internal const int StackallocPrograms = 128;

    private readonly MultiProgramScheduler _scheduler;
    private readonly WorkerPool _pool;
    private readonly Repartitioner _repartitioner;
    private readonly bool _lendingOption;
    private volatile AllocationSnapshot _snapshot;
    private Allocation? _inForce;
    private bool _poolLending;
    private int[][]? _wideLendingBuffers;
    private readonly ScalabilityTracker? _tracker;   // under the lock (online scalability; null: off)
    private readonly List<ScalabilityProbe> _probes = [];
    private long _lastObservation;
    private long _newcomerDeadline = long.MaxValue;  // see NewcomerDeadline

    public Mover(MultiProgramScheduler scheduler, WorkerPool pool, Repartitioner repartitioner, bool lendingOption, ScalabilityEstimatorOptions? estimation = null)
    {
        _scheduler = scheduler;
        _pool = pool;
        _repartitioner = repartitioner;
        _lendingOption = lendingOption;
        _tracker = estimation is null ? null : new ScalabilityTracker(pool.WorkerCount, estimation);
        _snapshot = AllocationSnapshot.Empty(pool.WorkerCount);
    }

    /// <summary>The allocation in force (any thread, one volatile read).</summary>
    public AllocationSnapshot Snapshot => _snapshot;

    /// <summary>
    /// Gathers the loads, asks the repartitioner, applies its allocation. Returns the policy's rejection (null when the
    /// decision was valid) and what was done with it.
    /// </summary>
    public RepartitionResult RepartitionNeedsLock(IPartitioningPolicy policy, ProgramHandle[] programs, RepartitionTrigger trigger)
    {
        var loads = new ProgramLoad[programs.Length];
        List<int>? mustServe = null;
        bool estimateChanged = false;
        ObserveTickNeedsLock(programs, trigger);
        TimeSpan quantum = _repartitioner.NewcomerQuantum;
        long now = Stopwatch.GetTimestamp();
        for (int i = 0; i < programs.Length; i++)
        {
            ProgramHandle p = programs[i];
            loads[i] = LoadOf(p, trigger, quantum > TimeSpan.Zero ? p.AttainedService(now) : null, quantum > TimeSpan.Zero ? p.RunningTasks : 0, ref estimateChanged);

            // The removal override's input (Repartitioner): a program being removed must keep a worker while it has tasks.
            if (p.IsRemoving && !p.Queues.IsIdle())
            {
                (mustServe ??= []).Add(p.Id);
            }
        }

        _probes.Clear();
        _tracker?.CollectProbes(Array.ConvertAll(programs, p => p.Id), _probes);
        RepartitionResult result = _repartitioner.Decide(policy, loads, _inForce, mustServe, _probes, AwaitingServiceNeedsLock(programs, loads));
        NoteNewcomersNeedsLock(programs, loads, result.Allocation, policy.Rotation == RotationScope.None ? TimeSpan.Zero : _repartitioner.NewcomerQuantum, now);

        // A periodic decision whose input changed only by an online estimate: its moves say so on the timeline.
        Apply(result.Allocation, programs, loads, policy, estimateChanged && trigger == RepartitionTrigger.Interval ? RepartitionTrigger.ScalabilityEstimate : trigger);
        return result;
    }

    /// <summary>
    /// When the earliest newcomer served first is expected to reach the quantum (a Stopwatch timestamp; long.MaxValue:
    /// none), so that the repartitioner re-decides then instead of at the next tick. Written under the lock
    /// (Volatile.Write), read by the repartitioner thread before it waits (Volatile.Read); a stale value only moves one
    /// wake.
    /// </summary>
    public long NewcomerDeadline => Volatile.Read(ref _newcomerDeadline);

    // Short jobs first (NewcomerPriority): each program's newcomer mark for the producers' demand signal, and the
    // deadline. A newcomer holding c cores attains service at most c times as fast as wall time (busy time counts a task
    // while it runs), so it cannot reach the quantum before now + (quantum - attained) / c: re-deciding then drops its
    // priority within about one gap of the moment it passes the quantum (required: others' wait for the cores bounded
    // by the quantum of service per newcomer, not by the interval).
    // The quantum is zero under a policy the step does not apply to (a fixed allocation: Repartitioner), so that its
    // programs never signal as newcomers.
    private void NoteNewcomersNeedsLock(ProgramHandle[] programs, ProgramLoad[] loads, Allocation allocation, TimeSpan quantum, long now)
    {
        long deadline = long.MaxValue;
        for (int i = 0; i < programs.Length; i++)
        {
            programs[i].IsNewcomer = NewcomerPriority.IsNewcomer(loads[i], quantum);
            int cores = allocation.CoresOf(loads[i].ProgramId);
            if (NewcomerPriority.IsServedFirst(loads[i], quantum))
            {
                // Left without a core (a newcomer with more service than the least attained one, or a removal took it):
                // asked again at once, which the repartitioner spaces by its least wait (the starved gap). So while the
                // least attained newcomer holds the cores, the others are re-decided once per gap: the one that then has
                // least service (it may be another, once the first has caught up) holds them next.
                TimeSpan left = cores > 0 ? (quantum - loads[i].AttainedService!.Value) / cores : TimeSpan.Zero;
                deadline = Math.Min(deadline, now + (long)(left.TotalSeconds * Stopwatch.Frequency) + 1);
            }
        }

        Volatile.Write(ref _newcomerDeadline, deadline);
    }

    // The rotation's input (Repartitioner, Rotation): with more programs than cores, the programs the allocation in force
    // gives a core that no worker serves yet while tasks wait. Their turn has not begun, so it is not over: without this a
    // decision taken before the worker got there (a task in hand, or a thread waiting for a processor on a loaded machine)
    // took the core back, and with decisions every few milliseconds a program could lose every turn. Racy by design (a
    // worker arriving during the read counts at the next decision): ServedWorkers is a display read. O(programs · workers),
    // only in the rotation's regime.
    private List<int>? AwaitingServiceNeedsLock(ProgramHandle[] programs, ProgramLoad[] loads)
    {
        if (_inForce is null || programs.Length <= _repartitioner.Cores)
        {
            return null;
        }

        List<int>? awaiting = null;
        for (int i = 0; i < programs.Length; i++)
        {
            if (loads[i].AvailableTasks > 0 && _inForce.CoresOf(programs[i].Id) > 0 && programs[i].ServedWorkers == 0)
            {
                (awaiting ??= []).Add(programs[i].Id);
            }
        }

        return awaiting;
    }

    /// <summary>Forgets a program that left (its online estimate).</summary>
    public void ProgramRemovedNeedsLock(int programId) => _tracker?.Remove(programId);

    // Online scalability, step 1: at a periodic tick, each program's counters since the last tick become one sample
    // (ScalabilityTracker: the same construction the simulator uses), observed at the cores the allocation in force
    // gave it. Other triggers do not end a tick: a tick is the interval, as the estimator's probing budget counts it.
    private void ObserveTickNeedsLock(ProgramHandle[] programs, RepartitionTrigger trigger)
    {
        if (_tracker is null || trigger != RepartitionTrigger.Interval)
        {
            return;
        }

        long now = Stopwatch.GetTimestamp();
        double elapsed = _lastObservation == 0 ? 0 : Stopwatch.GetElapsedTime(_lastObservation, now).TotalSeconds;
        _lastObservation = now;
        foreach (ProgramHandle p in programs)
        {
            _tracker.Observe(p.Id, _inForce?.CoresOf(p.Id) ?? 0, elapsed, p.ReadCounters(now));
        }
    }

    /// <summary>The next periodic tick starts a new observation interval (only records the counters).</summary>
    public void RestartObservationNeedsLock() => _lastObservation = 0;

    // Online scalability, step 2: the load a policy sees. The user's number or table wins; otherwise the estimate
    // (ScalabilityChoice), published on the handle for the snapshot and the meter.
    private ProgramLoad LoadOf(ProgramHandle p, RepartitionTrigger trigger, TimeSpan? attained, int running, ref bool estimateChanged)
    {
        if (_tracker is null)
        {
            return new ProgramLoad(p.Id, p.Scalability, p.AvailableTasks, p.ScalabilityTable, attained, running);
        }

        ProgramScalability before = p.ScalabilityState;
        ScalabilityChoice choice = _tracker.Choose(p.Id, p.UserScalability, p.ScalabilityTable);
        bool probing = _tracker.Estimator.TryGetProbe(p.Id, out _) && choice.Source != ScalabilitySource.User;
        if (trigger == RepartitionTrigger.Interval || before.Source != choice.Source || before.Scalability != choice.Scalability)
        {
            estimateChanged |= choice.Source != ScalabilitySource.User && (before.Source != choice.Source || before.Scalability != choice.Scalability);
            p.PublishScalability(new ProgramScalability(choice.Scalability, choice.Source, _tracker.Estimator.GetEstimate(p.Id), probing));
        }

        return new ProgramLoad(p.Id, choice.Scalability, p.AvailableTasks, choice.Table, attained, running);
    }

    private void Apply(Allocation allocation, ProgramHandle[] programs, ProgramLoad[] loads, IPartitioningPolicy policy, RepartitionTrigger trigger)
    {
        long now = Stopwatch.GetTimestamp();
        IIdleLendingPolicy? rule = policy as IIdleLendingPolicy;
        bool lending = rule is not null || _lendingOption;
        AllocationSnapshot previous = _snapshot;
        if (trigger is RepartitionTrigger.Interval or RepartitionTrigger.Demand && Unchanged(previous, allocation, programs, loads, rule, lending))
        {
            // A quiet periodic or demand decision: no new snapshot, no worker touched, no loan ended (a loan ends by
            // recall, by its borrower running dry, or at a decision that changes something: see Lender.cs).
            _inForce = allocation;
            return;
        }

        int workers = _pool.WorkerCount;
        var indexOfId = new Dictionary<int, int>(programs.Length);
        for (int i = 0; i < programs.Length; i++)
        {
            indexOfId[programs[i].Id] = i;
        }

        var owners = new int[workers];
        var homes = new WorkQueueSet?[workers];
        var reasons = new AllocationReason[workers];
        for (int slot = 0; slot < workers; slot++)
        {
            int id = allocation.WorkerOwners[slot];
            owners[slot] = id >= 0 ? indexOfId[id] : -1;
            homes[slot] = owners[slot] >= 0 ? programs[owners[slot]].Queues : null;
            reasons[slot] = allocation.Reasons[slot] != AllocationReason.None ? allocation.Reasons[slot] : trigger switch
            {
                RepartitionTrigger.ProgramArrival => AllocationReason.ProgramArrival,
                RepartitionTrigger.ProgramExit => AllocationReason.ProgramExit,
                _ => AllocationReason.None,
            };
        }

        // Published before the moves below (see the header).
        ScheduleHook.Yield("apply.publish");
        var snapshot = new AllocationSnapshot(programs, loads, allocation, owners, homes, previous.Homes, reasons, trigger, rule, lending, LendingBuffers(programs.Length));
        _snapshot = snapshot;
        if (lending != _poolLending)
        {
            _pool.SetLending(lending);
            _poolLending = lending;
        }

        // A program this decision leaves with no worker forgets its demand mark (required: the starved trigger is not lost).
        // The mark is cleared only by a worker that runs dry in the set, and a producer signals only when it sets it; a
        // program whose workers were moved away while it was marked (its work ended between the decision's read and the
        // move) would otherwise get its next task with the mark already set, signal nothing, and wait for a tick (for
        // ever with no periodic ticks). Cleared before the moves are published: a producer that still read the mark set
        // published its task before this clear, and the leaving worker's re-check after its process-wide barrier
        // (Worker.SwitchTo) sees that task; a producer that reads it clear sets it and signals (IsStarved).
        for (int i = 0; i < programs.Length && !KeepDemandMarks; i++)
        {
            if (allocation.CoresOf(programs[i].Id) == 0)
            {
                programs[i].Queues.ResetWantsWorkers();
            }
        }

        for (int slot = 0; slot < workers; slot++)
        {
            WorkQueueSet? target = homes[slot];
            Worker worker = _pool.Workers[slot];
            if (!Reassign(worker, target, out WorkQueueSet? replaced))
            {
                continue; // already there (owned, or it came home from a loan by itself)
            }

            // The worker's actual assignment may differ from what we last applied when it was on loan.
            replaced?.Owner?.WorkerLeft();
            target?.Owner?.WorkerArrived();
            _scheduler.RecordMove(new AllocationMove(now, slot, _scheduler.ProcessorOf(slot), replaced?.Owner?.Id, target?.Owner?.Id, reasons[slot], trigger));
        }

        // Release: a worker that reads it true sees the moves above as done (Lender.OnSelfMove's labels).
        snapshot.MovesDone = true;
        _inForce = allocation;
    }

    // Same programs in the same order, same scalabilities and tables, same owner per slot, same lending.
    private static bool Unchanged(
        AllocationSnapshot previous, Allocation allocation, ProgramHandle[] programs, ProgramLoad[] loads, IIdleLendingPolicy? rule, bool lending)
    {
        if (previous.Programs.Length != programs.Length || previous.Lending != lending || !ReferenceEquals(previous.LendingRule, rule))
        {
            return false;
        }

        for (int i = 0; i < programs.Length; i++)
        {
            if (!ReferenceEquals(previous.Programs[i], programs[i])
                || previous.Loads[i].Scalability != loads[i].Scalability
                || !ReferenceEquals(previous.Loads[i].ScalabilityTable, loads[i].ScalabilityTable))
            {
                return false;
            }
        }

        for (int slot = 0; slot < allocation.Cores; slot++)
        {
            if (allocation.WorkerOwners[slot] != previous.Allocation.WorkerOwners[slot])
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// Assigns <paramref name="worker"/> to <paramref name="target"/> unless it is there already (false: its token is
    /// renewed all the same, see the header). <paramref name="replaced"/> is the assignment the move replaced, so that
    /// the serving counts follow every change.
    /// </summary>
    /// <remarks>
    /// A CAS loop, not a plain write (required: exact serving counts). A worker changes its own assignment only by a CAS
    /// from the set it serves (a loan, a return, a recall: Lender.cs); whoever's CAS succeeds counts that change, so each
    /// change is counted once and against the set it really replaced. The mover retries until its value is in: its
    /// decision always wins, a self-move can only come before it. The CAS is a full fence, as Worker.Assign's write +
    /// TryWake (whose CAS pairs with Park's barrier before its re-check of the assignment: no lost wake-up). With no set
    /// on either side a plain Assign is enough: a worker assigned to no set cannot move itself (its CAS expects the set
    /// it serves), and no set as the target means no program is left, so a self-move that races with it only miscounts
    /// programs already removed.
    /// </remarks>
    private static bool Reassign(Worker worker, WorkQueueSet? target, out WorkQueueSet? replaced)
    {
        while (true)
        {
            WorkerAssignment token = worker.Assignment;
            WorkQueueSet? current = token.Set;
            replaced = current;
            if (ReferenceEquals(current, target))
            {
                // Required (a move by the mover always wins): a new token, so that a self-move the worker decided on an
                // older snapshot fails instead of landing after this decision. A worker assigned to no set makes none.
                if (current is null || worker.TryRenewAssignment(token))
                {
                    return false;
                }

                continue; // the worker moved itself meanwhile: move it back
            }

            if (current is null || target is null)
            {
                worker.Assign(target);
                return true;
            }

            // Worker.TryReplaceAssignment is the worker's CAS on its assignment; used here by the mover (see the remarks).
            if (worker.TryReplaceAssignment(token, current, target))
            {
                worker.TryWake();
                return true;
            }
        }
    }

    // Per slot, room for the serving and task counts of more programs than fit on the stack; grown (never shrunk or
    // written) under the lock, filled only by the worker of that slot.
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
}
