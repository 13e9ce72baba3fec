using System.Diagnostics;

namespace DivCon.Simulation.Engine;

/// <summary>
/// Work inflation: the bandwidth-contention model (docs/simulation.md, "Work inflation").
/// </summary>
/// <remarks>
/// <para><b>Model.</b> A task step of a program with memory intensity m &gt; 0 does its work (its cost: its time
/// alone) at rate 1 / f, where f = 1 + β·m·U, β = <see cref="SimulationParameters.MemoryContention"/> and
/// U = (S − m) / (N − 1) the mean intensity of the task steps on the other N − 1 cores (S = Σ intensity of the task
/// steps running now, its own included; idle, searching and switching cores add nothing). So co-running programs
/// inflate each other by how memory-bound both are, and a machine of any size whose cores all run the same
/// program inflates it as much as two cores do: memory bandwidth is taken to grow with the core count.</para>
/// <para><b>Fluid, exact between changes.</b> S changes only when a task step of intensity &gt; 0 starts, ends or is
/// preempted. All running steps of one program have the same rate, so each program keeps a virtual clock of the work
/// one of its steps has done (<see cref="MemoryGroup.Clock"/>, advanced at 1 / f) and its running steps ordered by the
/// clock value at which they finish; only the step that finishes first of all has a StepDone event. A change of S
/// advances every program's clock at its old rate, sets the new rates and moves that one event when it changed (a
/// worker's event that no longer holds goes stale through its stamp), so a change costs O(programs), not O(cores).
/// Compute-bound programs (m = 0), and every program when β = 0, never enter this path: their steps end at start +
/// cost.</para>
/// <para><b>Accounting.</b> The work done is charged to the task bucket, the time beyond it to
/// <see cref="InflationBucket"/>, so Σ buckets + idle = N · elapsed still holds and the task bucket is still
/// Σ cost of the work executed. The inflation bucket is the model's F_P.</para>
/// </remarks>
internal sealed partial class Machine
{
    /// <summary>Index in <see cref="Buckets"/> of the time tasks ran beyond their work (work inflation).</summary>
    public const int InflationBucket = 6;

    // Per program index: its running memory-bound steps (created on first use). Single-threaded: no synchronisation.
    private MemoryGroup?[]? _memoryGroups;
    private long _memorySeq;

    // The memory-bound step whose StepDone event is scheduled (the first of all to finish), or null.
    private SimWorker? _memoryNext;

    /// <summary>Starts a task step of <paramref name="work"/> ns of work on <paramref name="w"/>.</summary>
    private void StartTaskStep(SimWorker w, SimTask task, double work)
    {
        Debug.Assert(w.State == WorkerState.Running && work >= 0, "Only a worker on a core runs a task.");
        w.Step = StepKind.Task;
        w.Task = task;
        w.StepStart = _now;
        w.StepWork = work;
        SimProgram program = task.Run.Program;
        double intensity = _p.MemoryContention > 0 ? program.Shape.Model.MemoryIntensity : 0;
        if (intensity <= 0)
        {
            w.Memory = null;
            w.StepEnd = _now + Duration(work, 1);
            Schedule(w.StepEnd, EventKind.StepDone, w.Id, w.Stamp);
            return;
        }

        _memoryGroups ??= new MemoryGroup?[Programs.Count];
        MemoryGroup group = _memoryGroups[program.Index] ??= new MemoryGroup(intensity);
        AdvanceClocks();
        w.Memory = group;
        w.VirtualEnd = group.Clock + work;
        w.MemorySeq = _memorySeq++;
        w.StepEnd = long.MaxValue; // no event until it is the first of its group to finish
        group.Running.Add(w);
        Reschedule();
    }

    /// <summary>Charges the part of the task step in progress on <paramref name="w"/> that ran up to now; returns the work left.</summary>
    private double ChargeTaskSoFar(SimWorker w)
    {
        double left = WorkLeftNow(w);
        ChargeTask(w, w.StepWork - left, _now - w.StepStart);
        return left;
    }

    /// <summary>Charges <paramref name="elapsed"/> ns of a task step that did <paramref name="workDone"/> ns of work.</summary>
    private void ChargeTask(SimWorker w, double workDone, long elapsed)
    {
        w.Pool.BusyNs += elapsed; // the program's busy time, as its workers' counters keep it (Machine.Partitioning.cs)
        // Work done, rounded to the ns, never more than the time it took (rounding of a step's end can make the two
        // differ by a fraction of a ns); the rest is inflation. Without contention both are the same integer.
        long work = Math.Clamp((long)Math.Round(workDone, MidpointRounding.AwayFromZero), 0, elapsed);
        _buckets[(int)StepKind.Task] += work;
        _buckets[InflationBucket] += elapsed - work;
    }

    private double WorkLeftNow(SimWorker w)
    {
        if (w.Memory is not { } group)
        {
            return Math.Max(0, w.StepEnd - _now);
        }

        AdvanceClocks();
        return Math.Max(0, w.VirtualEnd - group.Clock);
    }

    private void LeaveMemory(SimWorker w)
    {
        if (w.Memory is not { } group)
        {
            return;
        }

        AdvanceClocks();
        bool removed = group.Running.Remove(w);
        Debug.Assert(removed, "A memory-bound task step in progress is in its group.");
        if (_memoryNext == w)
        {
            _memoryNext = null; // its event has fired (end) or goes stale with the caller's stamp bump (preemption)
        }

        w.Memory = null;
        Reschedule();
    }

    /// <summary>Brings every group's clock up to now at the rate it has had since its last change.</summary>
    private void AdvanceClocks()
    {
        foreach (MemoryGroup? g in _memoryGroups ?? [])
        {
            if (g is not null && g.ClockAt != _now)
            {
                g.Clock += (_now - g.ClockAt) / g.Factor;
                g.ClockAt = _now;
            }
        }
    }

    /// <summary>
    /// The load changed (clocks already advanced to now): new rates, and the one StepDone event of all memory-bound
    /// steps, that of the step that finishes first, moved when it changed (the event it replaces goes stale through
    /// the worker's stamp). One event for all groups rather than one per group: the load changes at nearly every
    /// start and end, and each change would otherwise leave one stale event per group in the queue.
    /// </summary>
    private void Reschedule()
    {
        double load = 0;
        foreach (MemoryGroup? g in _memoryGroups!)
        {
            load += g is null ? 0 : g.Intensity * g.Running.Count;
        }

        int others = _cores.Length - 1;
        SimWorker? next = null;
        long nextEnd = long.MaxValue;
        foreach (MemoryGroup? g in _memoryGroups!)
        {
            if (g is null)
            {
                continue;
            }

            g.Factor = others == 0 ? 1 : 1 + (_p.MemoryContention * g.Intensity * Math.Max(0, load - g.Intensity) / others);
            if (g.Running.Count > 0)
            {
                SimWorker first = g.Running.Min!;
                long end = _now + Duration(Math.Max(0, first.VirtualEnd - g.Clock), g.Factor);
                if (end < nextEnd)
                {
                    next = first;
                    nextEnd = end;
                }
            }
        }

        if (_memoryNext is { } scheduled && (scheduled != next || scheduled.StepEnd != nextEnd))
        {
            scheduled.Stamp++; // its event no longer holds
            scheduled.StepEnd = long.MaxValue;
        }

        if (next is not null && (next != _memoryNext || next.StepEnd != nextEnd))
        {
            next.StepEnd = nextEnd;
            Schedule(nextEnd, EventKind.StepDone, next.Id, next.Stamp);
        }

        _memoryNext = next;
    }

    private static long Duration(double work, double factor) => (long)Math.Round(work * factor, MidpointRounding.AwayFromZero);

    /// <summary>The running memory-bound task steps of one program and its virtual clock.</summary>
    internal sealed class MemoryGroup(double intensity)
    {
        /// <summary>The program's memory intensity m.</summary>
        public double Intensity { get; } = intensity;

        /// <summary>Work (ns) each of its running steps has done since the group was made, as of <see cref="ClockAt"/>.</summary>
        public double Clock { get; set; }

        /// <summary>When <see cref="Clock"/> was last advanced.</summary>
        public long ClockAt { get; set; }

        /// <summary>The slowdown of its steps since then: 1 + β·m·U.</summary>
        public double Factor { get; set; } = 1;

        /// <summary>Its running steps, by the clock value at which they finish, then by start order.</summary>
        public SortedSet<SimWorker> Running { get; } = new(s_finishOrder);
    }

    private static readonly Comparer<SimWorker> s_finishOrder = Comparer<SimWorker>.Create(
        (x, y) => x.VirtualEnd.CompareTo(y.VirtualEnd) is var c && c != 0 ? c : x.MemorySeq.CompareTo(y.MemorySeq));
}
