using DivCon.Partitioning;

namespace DivCon.Simulation.Engine;

/// <summary>The MultiProgramScheduler's mechanism: asking the policy, applying its allocation, idle lending.</summary>
internal sealed partial class Machine
{
    private Allocation? _previous;
    private int[]? _previousIds;

    public int PolicyCalls { get; private set; }

    public long Loans { get; private set; }

    /// <summary>Per program: core-time held by allocation (Σ over decisions of cores × time in force), ns.</summary>
    public long[]? AllocatedCoreNs { get; private set; }

    private long _lastDecisionNs;
    private int[]? _lastCounts;

    /// <summary>
    /// Reads each program's scalability and O(1) available-task counter, asks the policy, validates and applies the
    /// allocation: a worker whose slot changes owner moves at its next task boundary (at once if it is blocked).
    /// </summary>
    private void Decide(bool initial)
    {
        PartitioningSetup setup = Partitioning!;
        var loads = new ProgramLoad[Programs.Count];
        var ids = new int[Programs.Count];
        for (int i = 0; i < Programs.Count; i++)
        {
            SimProgram program = Programs[i];
            loads[i] = new ProgramLoad(i, program.Scalability, program.Pool.TaskCount, program.Table);
            ids[i] = i;
        }

        var input = new PartitioningInput(_cores.Length, loads, null, _previous, _previousIds);
        Allocation allocation = setup.Policy.Decide(input);
        PolicyCalls++;
        IReadOnlyList<string> problems = allocation.Validate(input);
        if (problems.Count > 0)
        {
            throw new InvalidOperationException($"Policy '{setup.Policy.Name}' returned an invalid allocation: {string.Join(" ", problems)}");
        }

        AccountAllocation();
        _lastCounts = allocation.Counts.ToArray();
        _previous = allocation;
        _previousIds = ids;
        for (int slot = 0; slot < _cores.Length; slot++)
        {
            SimWorker w = _workers[slot];
            WorkPool target = Pools[allocation.WorkerOwners[slot]];
            if (initial)
            {
                w.Pool = target;
                w.HomePool = target;
                target.AddActive(slot);
                target.Serving++;
                target.Sleepers.Add(w);
                continue;
            }

            w.HomePool = target;
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
                _events.Schedule(_now + _p.WakeNs, EventKind.Wake, w.Id);
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

    /// <summary>Closes the allocation accounting at the end of the simulation.</summary>
    private void CloseAllocation()
    {
        if (Partitioning is not null)
        {
            AccountAllocation();
        }
    }

    /// <summary>
    /// Idle lending (<see cref="IdleLending"/>): a worker that finds nothing goes home if it was lent, otherwise asks the
    /// policy for a borrower once per idle episode. Returns whether it moved.
    /// </summary>
    private bool TryLend(SimWorker w)
    {
        if (Partitioning?.Lending is not { } lending || w.HomePool is null)
        {
            return false;
        }

        if (w.Pool != w.HomePool)
        {
            w.LoanTried = true;
            MoveTo(w, w.HomePool);
            return true;
        }

        if (w.LoanTried)
        {
            return false;
        }

        int m = Programs.Count;
        Span<double> scalabilities = m <= 64 ? stackalloc double[m] : new double[m];
        Span<int> serving = m <= 64 ? stackalloc int[m] : new int[m];
        Span<int> available = m <= 64 ? stackalloc int[m] : new int[m];
        for (int i = 0; i < m; i++)
        {
            scalabilities[i] = Programs[i].Scalability;
            serving[i] = Pools[i].Serving;
            available[i] = Pools[i].TaskCount;
        }

        int borrower = lending.ChooseBorrower(scalabilities, serving, available, w.Pool.Id);
        if (borrower < 0)
        {
            return false;
        }

        w.LoanTried = true;
        Loans++;
        MoveTo(w, Pools[borrower]);
        return true;
    }
}
