using DivCon.Partitioning;
using DivCon.Partitioning.Estimation;

namespace DivCon.Simulation.Engine;

/// <summary>
/// The MultiProgramScheduler's mechanism on virtual cores: the mover (src/DivCon/Multiprogramming/Mover.cs) and the
/// lender (Lender.cs). The decision itself is not modelled but made: the very <see cref="Repartitioner"/> and borrower
/// rule (<see cref="IdleLending.Choose"/>) the real scheduler calls, on the programs' loads.
/// </summary>
internal sealed partial class Machine
{
    private Repartitioner? _repartitioner;
    private Allocation? _inForce;
    private ProgramLoad[] _decidedLoads = [];
    private bool _lendingInForce;
    private bool _demandPending;
    private ScalabilityTracker? _tracker;
    private long _lastObservationNs;
    private readonly List<ScalabilityProbe> _probes = [];

    private int _policyCalls;
    private int _rejections;
    private int _demandDecisions;
    private long _loans;
    private long _recalls;

    /// <summary>Per program: core-time held by allocation (Σ over decisions of cores × time in force), ns.</summary>
    public long[]? AllocatedCoreNs { get; private set; }

    private long _lastDecisionNs;
    private int[]? _lastCounts;

    /// <summary>Whether producers mark demand (lending in force, or demand-driven decisions): WorkQueueSet.TracksDemand.</summary>
    private bool TracksDemand => _lendingInForce || Partitioning?.OnDemand == true;

    /// <summary>
    /// The mover (Mover.RepartitionNeedsLock): reads each program's scalability and O(1) available-task counter, asks
    /// the repartitioner, applies the allocation: every worker not at its slot's home moves there at its next task
    /// boundary (at once if it is blocked); a later (periodic or demand) decision that changes nothing touches no worker.
    /// </summary>
    private void Decide(bool initial)
    {
        PartitioningSetup setup = Partitioning!;
        _repartitioner ??= new Repartitioner(_cores.Length, CacheGroups(_cores.Length, _p.CoresPerCacheGroup));
        // The online estimate when there is one. No attained service or running tasks: short jobs first is off in the
        // simulated (the harness's thesis) schemes.
        ProgramLoad[] loads = [.. Programs.Select((program, i) => Tracker?.Choose(i, null, null) is { } online
            ? new ProgramLoad(i, online.Scalability, program.Pool.TaskCount, online.Table)
            : new ProgramLoad(i, program.Scalability, program.Pool.TaskCount, program.Table))];

        _probes.Clear();
        Tracker?.CollectProbes([.. Enumerable.Range(0, Programs.Count)], _probes);
        RepartitionResult result = _repartitioner.Decide(setup.Policy, loads, _inForce, probes: _probes);
        _policyCalls++;
        if (result.Rejection is not null)
        {
            _rejections++;
        }

        Allocation allocation = result.Allocation;
        bool unchanged = _inForce is not null && allocation.MovesFrom(_inForce) == 0 && _lendingInForce == setup.Lending;
        AccountAllocation();
        _lastCounts = allocation.Counts.ToArray();
        _inForce = allocation;
        if (!initial && unchanged)
        {
            return; // a quiet decision: no worker touched, no loan ended (Mover.cs)
        }

        _decidedLoads = loads;
        _lendingInForce = setup.Lending;
        for (int slot = 0; slot < _cores.Length; slot++)
        {
            SimWorker w = _workers[slot];
            WorkPool target = Pools[allocation.WorkerOwners[slot]];
            w.HomePool = target;
            if (initial)
            {
                w.Pool = target;
                w.ServingSince = _now;
                target.Active.Add(slot);
                target.Sleepers.Add(w);
                continue;
            }

            w.Away = false;
            if (w.Pool == target)
            {
                w.PendingPool = null; // also ends a loan decided elsewhere: it stays where its slot now belongs
                continue;
            }

            w.PendingPool = target;
            if (w.State == WorkerState.Blocked)
            {
                // Woken directly to move, not as a searcher of its old pool (it never counted there).
                w.Pool.Sleepers.Remove(w);
                w.State = WorkerState.Waking;
                Schedule(_now + _p.WakeNs, EventKind.Wake, w.Id);
            }
        }

        if (initial)
        {
            // The first runs' roots were queued before any worker served them: wake one worker per queued task.
            foreach (WorkPool pool in Pools)
            {
                for (int k = 0; k < pool.TaskCount; k++)
                {
                    WakeOne(pool);
                }
            }
        }
    }

    /// <summary>The online estimator's wiring (<see cref="PartitioningSetup.Estimation"/>), or null for the model's values.</summary>
    private ScalabilityTracker? Tracker => Partitioning?.Estimation is { } options ? _tracker ??= new ScalabilityTracker(_cores.Length, options) : null;

    /// <summary>Per program, its online estimate at the end (null without online estimation).</summary>
    public IReadOnlyList<ScalabilityEstimate>? Estimates => Tracker is { } t ? Programs.Select(p => t.Estimator.GetEstimate(p.Index)).ToArray() : null;

    /// <summary>
    /// Online scalability at a tick (Mover.ObserveTickNeedsLock): each program's counters since the last tick, built into a
    /// sample by the same <see cref="ScalabilityTracker"/>, at the cores the allocation in force gave it. Counters as
    /// the real workers keep them: served core time (Σ workers serving its pool), busy time (its task steps), tasks.
    /// </summary>
    private void ObserveTick()
    {
        if (Tracker is not { } tracker || _inForce is null)
        {
            return;
        }

        double elapsed = (_now - _lastObservationNs) / 1e9;
        _lastObservationNs = _now;
        for (int i = 0; i < Programs.Count; i++)
        {
            long served = ServedNs(Pools[i]), busy = BusyNs(Pools[i]);
            tracker.Observe(i, _inForce.CoresOf(i), elapsed, new ProgramCounters(served / 1e9, Math.Max(0, served - busy) / 1e9, Pools[i].TasksExecuted));
        }
    }

    /// <summary>The core time workers served <paramref name="pool"/>: those that left it, and those serving it now up to now, ns.</summary>
    private long ServedNs(WorkPool pool) => pool.ServedNs + _workers.Where(w => w.Pool == pool).Sum(w => _now - w.ServingSince);

    /// <summary>The time workers ran <paramref name="pool"/>'s tasks: the steps that ended, and those running now up to now, ns.</summary>
    private long BusyNs(WorkPool pool) =>
        pool.BusyNs + _workers.Where(w => w.Pool == pool && w.Step == StepKind.Task && w.State == WorkerState.Running).Sum(w => _now - w.StepStart);

    // Synthetic cache groups of a fixed size (SimulationParameters.CoresPerCacheGroup), or none.
    private static IReadOnlyList<IReadOnlyList<int>>? CacheGroups(int cores, int perGroup) =>
        perGroup <= 0 || perGroup >= cores ? null : Enumerable.Range(0, cores).Chunk(perGroup).ToArray();

    private void AccountAllocation()
    {
        AllocatedCoreNs ??= new long[Programs.Count];
        if (_lastCounts is not null)
        {
            for (int i = 0; i < _lastCounts.Length; i++)
            {
                AllocatedCoreNs[i] += _lastCounts[i] * (_now - _lastDecisionNs);
            }
        }

        _lastDecisionNs = _now;
    }

    /// <summary>
    /// Per program, the core-time its workers served it (partitioned schemes, else null): Σ over workers of the time
    /// from a move to it (the cold start included) until the move away. Below <see cref="AllocatedCoreNs"/> by the time
    /// its allocated cores were still finishing another program's task (a move waits for the task boundary).
    /// </summary>
    public long[]? ServedCoreNs() => Partitioning is null ? null : Pools.Select(ServedNs).ToArray();

    /// <summary>
    /// The lender's idle decision (Lender.FindIdleWork) for a worker with nothing to do: away from its home, it goes
    /// home; at home with lending in force, the borrower rule picks a program. Returns whether it moved.
    /// </summary>
    private bool TryLend(SimWorker w)
    {
        if (Partitioning is null || w.HomePool is null)
        {
            return false;
        }

        if (w.Pool != w.HomePool)
        {
            w.Away = false;
            MoveTo(w, w.HomePool);
            return true;
        }

        if (!_lendingInForce || Programs.Count < 2)
        {
            return false;
        }

        var input = new LendingInput(_cores.Length, _decidedLoads, [.. Pools.Select(p => p.Active.Count)], [.. Pools.Select(p => p.TaskCount)], w.Pool.Id);
        int borrower = IdleLending.Choose(Partitioning.LendingRule, input, out string? rejection);
        if (rejection is not null)
        {
            _rejections++;
        }

        if (borrower < 0)
        {
            return false;
        }

        _loans++;
        w.Away = true;
        MoveTo(w, Pools[borrower]);
        return true;
    }

    /// <summary>
    /// A lent worker at a task boundary (Lender.FindRecall): home, if its home wants workers. Returns whether it moved.
    /// </summary>
    private bool TryRecall(SimWorker w)
    {
        if (!w.Away || w.HomePool is not { } home || w.Pool == home)
        {
            w.Away = false;
            return false;
        }

        if (!home.WantsWorkers)
        {
            return false;
        }

        _recalls++;
        w.Away = false;
        MoveTo(w, home);
        return true;
    }

    /// <summary>
    /// A producer queued a task while none of the pool's workers was blocked (WorkQueueSet.RequestWorkers): the pool
    /// wants workers (its lent ones come home at their next task boundary) and, with lending, a blocked worker of any
    /// other pool is woken to lend itself.
    /// </summary>
    private void RequestWorkers(WorkPool pool)
    {
        if (!pool.WantsWorkers)
        {
            pool.WantsWorkers = true;
            DemandChanged();
        }

        if (_lendingInForce)
        {
            WakeLender();
        }
    }

    /// <summary>A worker serving <paramref name="pool"/> ran out of work (WorkQueueSet.ClearWantsWorkers).</summary>
    private void RanDry(WorkPool pool)
    {
        if (pool.WantsWorkers)
        {
            pool.WantsWorkers = false;
            DemandChanged();
        }
    }

    /// <summary>Demand-driven decisions: one pending at a time, taken <see cref="SimulationParameters.DemandLatencyNs"/> later.</summary>
    private void DemandChanged()
    {
        if (Partitioning?.OnDemand != true || _demandPending || _inForce is null)
        {
            return;
        }

        _demandPending = true;
        Schedule(_now + _p.DemandLatencyNs, EventKind.Demand, 0);
    }

    private void OnDemand()
    {
        _demandPending = false;
        _demandDecisions++;
        Decide(initial: false);
    }

    /// <summary>Lending's wake-up (WorkerPool.WakeOneFor): a random blocked worker of any pool.</summary>
    private void WakeLender()
    {
        int total = Pools.Sum(p => p.Sleepers.Count);
        if (total == 0)
        {
            return;
        }

        int pick = _random.Next(total);
        foreach (WorkPool p in Pools)
        {
            if (pick >= p.Sleepers.Count)
            {
                pick -= p.Sleepers.Count;
                continue;
            }

            WakeSleeper(p, pick);
            return;
        }
    }
}
