using System.Diagnostics;
using DivCon.Partitioning;

namespace DivCon.Simulation.Engine;

/// <summary>
/// One discrete-event simulation: N virtual cores, the workers and queues of one scheme, and the programs' runs.
/// </summary>
/// <remarks>
/// <para><b>Time</b> is an integer count of nanoseconds. Events fire in (time, scheduling order); everything that
/// happens at an event happens at that instant, and a worker's work is a sequence of <i>steps</i> with a duration
/// (a task, a dispatch, a steal, a failed steal attempt, a context switch, a cold start). Decisions are taken at the
/// start of a step (a thief removes the task it steals at once, so no two workers take the same task), effects at
/// its end (a split's children are pushed when the split finishes).</para>
/// <para><b>Worker loop</b> (docs/DESIGN.md §2): own deque bottom (LIFO) → its pool's global queue → steal the top (FIFO)
/// of a random victim's deque among the pool's active slots; after <see cref="SimulationParameters.SpinAttempts"/>
/// failed attempts it looks at every victim once more and then blocks. A push wakes a random blocked worker of the
/// pool (one per pushed task) after <see cref="SimulationParameters.WakeNs"/>. Because the simulator is single-threaded
/// the "announce, fence, re-check" protocol of a real scheduler reduces to the final look: no wake-up can be lost.</para>
/// <para><b>Cores</b>: a worker runs only on a core. With one pinned worker per core (shared, partitioned, isolated)
/// no core is ever contended. Oversubscribed schemes time-slice: a core's slice ends every
/// <see cref="SimulationParameters.QuantumNs"/>, and if a worker eligible for it is waiting the running one is
/// preempted mid-step (its remaining time saved) and queued at the back. Pinned workers wait in their core's queue;
/// free workers in one global queue that any core serves (an idealised work-conserving OS balancer: no core idles
/// while a thread waits), and a free worker resumed on a different core pays a cold start.</para>
/// <para><b>Accounting</b>: every nanosecond of every core is in exactly one bucket (the steps' kinds, the time tasks
/// ran beyond their work under memory contention, or idle), so Σ buckets = cores · elapsed, and the task bucket equals
/// Σ cost of the task time executed.</para>
/// <para><b>Work inflation</b>: tasks of memory-bound programs slow each other down (Machine.Memory.cs).</para>
/// </remarks>
internal sealed partial class Machine
{
    private readonly SimulationParameters _p;
    // The pending events, keyed by (time, scheduling sequence). The key is unique, so the order events fire in is a
    // total order fixed here, not by the heap's tie-breaking: that order decides which worker wins a steal, so it must
    // never change with a runtime version.
    private readonly PriorityQueue<SimEvent, (long Time, long Seq)> _events = new(256);
    private long _eventSeq;
    private readonly SimCore[] _cores;
    private readonly SimWorker[] _workers;
    private readonly Queue<SimWorker> _freeRunQueue = new();
    private readonly IndexSet _freeCores; // idle cores (free arrangement only)
    private readonly bool _timeSliced;
    private readonly SimRandom _random;
    private readonly long[] _buckets = new long[7]; // the step kinds, then InflationBucket
    private long _now;
    private SimProgram? _stopWhenDone; // the isolated run's program; null in the cyclic phase, where runs restart
    private bool _stopped;

    // Counted for SimulationCounters (Counters), which says what each counts.
    private long _eventsProcessed;
    private long _steals;
    private long _failedSteals;
    private long _contextSwitches;
    private long _preemptions;
    private long _coldStarts;
    private long _workerMoves;
    private long _programSwitches;

    public Machine(
        int cores,
        SimulationParameters parameters,
        SchemeArrangement arrangement,
        IReadOnlyList<SimProgram> programs,
        IReadOnlyList<WorkPool> pools,
        ulong seed,
        PartitioningSetup? partitioning = null)
    {
        _p = parameters;
        Arrangement = arrangement;
        Programs = programs;
        Pools = pools;
        _random = new SimRandom(seed);
        _timeSliced = arrangement is SchemeArrangement.OversubscribedFree or SchemeArrangement.OversubscribedPinned;
        _cores = Enumerable.Range(0, cores).Select(c => new SimCore { Id = c }).ToArray();
        _freeCores = new IndexSet(cores);

        // Free-core set (free arrangement), lowest id on top at the start.
        for (int c = cores - 1; c >= 0; c--)
        {
            _freeCores.Add(c);
        }

        var workers = new List<SimWorker>();
        if (arrangement == SchemeArrangement.Partitioned)
        {
            ArgumentNullException.ThrowIfNull(partitioning);
            for (int c = 0; c < cores; c++)
            {
                // Placeholder pool until the first decision (Start) assigns every slot.
                workers.Add(new SimWorker { Id = c, Pool = pools[0], Slot = c, PinnedCore = c });
            }
        }
        else
        {
            // A worker per core per pool: one pool for the shared scheduler, one per program when oversubscribed.
            Debug.Assert(arrangement != SchemeArrangement.ThreadPool, "The thread pool is not simulated.");
            Debug.Assert(arrangement != SchemeArrangement.Shared || pools.Count == 1, "One pool for the shared scheduler.");
            foreach (WorkPool pool in pools)
            {
                for (int c = 0; c < cores; c++)
                {
                    int pinnedCore = arrangement == SchemeArrangement.OversubscribedFree ? -1 : c;
                    var w = new SimWorker { Id = workers.Count, Pool = pool, Slot = c, PinnedCore = pinnedCore };
                    pool.Active.Add(c);
                    pool.Sleepers.Add(w);
                    workers.Add(w);
                }
            }
        }

        _workers = workers.ToArray();
        Partitioning = partitioning;
    }

    public SchemeArrangement Arrangement { get; }

    public IReadOnlyList<SimProgram> Programs { get; }

    public IReadOnlyList<WorkPool> Pools { get; }

    public PartitioningSetup? Partitioning { get; }

    public long TasksExecuted { get; private set; }

    /// <summary>Tasks created over the whole simulation.</summary>
    public long TasksCreated { get; private set; }

    /// <summary>Tasks queued and not started, over every pool.</summary>
    public long TasksQueued => Pools.Sum(p => (long)p.TaskCount);

    /// <summary>Tasks started and not finished (on a core, or preempted in the middle).</summary>
    public long TasksInProgress => _workers.Count(w => (w.Step is StepKind.Task or StepKind.Dispatch or StepKind.Steal or StepKind.Migration && w.Task is not null) || w.SavedTask is not null);

    /// <summary>Every task is queued, in progress or executed: none lost, none run twice (counts must add up).</summary>
    public bool TasksAccountedFor => TasksCreated == TasksExecuted + TasksQueued + TasksInProgress;

    /// <summary>Core-time per bucket, ns: task, dispatch, steal, search, context switch, migration, inflation (<see cref="InflationBucket"/>).</summary>
    public IReadOnlyList<long> Buckets => _buckets;

    public long IdleNs { get; private set; }

    /// <summary>Runs one run of <paramref name="program"/> alone, from an idle machine; returns its duration.</summary>
    public long RunIsolated(SimProgram program)
    {
        _stopWhenDone = program;
        StartRun(program);
        Loop(long.MaxValue);
        Debug.Assert(_stopped, "An isolated run always finishes: every task is eventually executed.");
        Close();
        return program.Durations[^1];
    }

    /// <summary>
    /// The multiprogram phase of the cyclic test: every program starts at time 0 and restarts as soon as a run
    /// ends; events after <paramref name="limitNs"/> are not simulated, so runs still going then are discarded.
    /// </summary>
    public void RunCyclic(long limitNs)
    {
        foreach (SimProgram program in Programs)
        {
            StartRun(program);
        }

        if (Partitioning is not null)
        {
            Decide(initial: true);
            Schedule(_p.RepartitionIntervalNs, EventKind.Tick, 0);
        }

        Loop(limitNs);
        _now = limitNs;
        Close();
    }

    private void Loop(long limitNs)
    {
        while (!_stopped && _events.Count > 0 && _events.Peek().Time <= limitNs)
        {
            SimEvent e = _events.Dequeue();
            Debug.Assert(e.Time >= _now, "Time never goes backwards.");
            _now = e.Time;
            _eventsProcessed++;
            switch (e.Kind)
            {
                case EventKind.StepDone:
                    SimWorker w = _workers[e.Target];
                    if (w.Stamp == e.Stamp && w.State == WorkerState.Running)
                    {
                        OnStepDone(w);
                    }

                    break;
                case EventKind.Wake:
                    OnWake(_workers[e.Target]);
                    break;
                case EventKind.SliceEnd:
                    OnSliceEnd(_cores[e.Target], e.Stamp);
                    break;
                case EventKind.Demand:
                    OnDemand();
                    break;
                case EventKind.Tick:
                    ObserveTick();
                    Decide(initial: false);
                    Schedule(_now + _p.RepartitionIntervalNs, EventKind.Tick, 0);
                    break;
            }
        }
    }

    /// <summary>Charges every step in progress up to now and closes the cores' idle intervals.</summary>
    private void Close()
    {
        if (Partitioning is not null)
        {
            AccountAllocation(); // closes the allocation accounting
        }

        foreach (SimCore core in _cores)
        {
            if (core.Current is { } w)
            {
                if (w.Step == StepKind.Task)
                {
                    w.StepWork = ChargeTaskSoFar(w);
                    w.StepStart = _now;
                }
                else if (w.Step != StepKind.None)
                {
                    Charge(w.Step, _now - w.StepStart);
                    w.StepStart = _now;
                }
            }
            else
            {
                IdleNs += _now - core.IdleSince;
                core.IdleSince = _now;
            }
        }
    }

    private void Schedule(long time, EventKind kind, int target, int stamp = 0) =>
        _events.Enqueue(new SimEvent(time, kind, target, stamp), (time, _eventSeq++));

    private void Charge(StepKind kind, long ns) => _buckets[(int)kind] += ns;

    // The names of the buckets in the file, in bucket order: the step kinds, then InflationBucket.
    private static readonly string[] BucketNames = ["task", "dispatch", "steal", "search", "contextSwitch", "migration", "inflation"];

    /// <summary>What happened so far, as the result file reports it.</summary>
    public SimulationCounters Counters() => new(
        _eventsProcessed,
        TasksExecuted,
        _steals,
        _failedSteals,
        _contextSwitches,
        _preemptions,
        _coldStarts,
        _workerMoves,
        _loans,
        _programSwitches,
        _policyCalls,
        BucketNames.Select((name, i) => (name, _buckets[i])).Append(("idle", IdleNs)).ToDictionary(),
        AllocatedCoreNs?.ToArray())
    {
        ServedCoreNs = ServedCoreNs(),
        Recalls = _recalls,
        DemandDecisions = _demandDecisions,
        Rejections = _rejections,
        OnlineScalability = Estimates?.Select(e => e.Scalability).ToArray(),
    };

    // ---- runs and the D&C tree ------------------------------------------------------------------------------

    private void StartRun(SimProgram program)
    {
        int index = program.FirstRunIndex + program.RunsStarted++;
        ulong seed = SimRandom.Derive(program.Seed, (ulong)index);
        var run = new ProgramRun(program, seed, _now);
        program.Current = run;
        TaskTreeShape shape = program.Shape;
        SimTask first = shape.Model.SequentialNs > 0
            ? NewTask(TaskKind.Sequential, run, null, shape.Model.SequentialNs)
            : NodeTask(NewNode(run, null, 1, 1.0, seed));
        PushGlobal(program.Pool, first);
    }

    private static TreeNode NewNode(ProgramRun run, TreeNode? parent, int level, double fraction, ulong seed) =>
        new(run, parent, level, fraction, seed, run.Program.Shape.IsLeaf(level, fraction));

    private SimTask NodeTask(TreeNode node)
    {
        TaskTreeShape shape = node.Run.Program.Shape;
        long cost = node.IsLeaf ? shape.ExecuteCost(node.Fraction) : shape.SplitCost(node.Level, node.Fraction);
        return NewTask(TaskKind.Node, node.Run, node, cost);
    }

    private SimTask NewTask(TaskKind kind, ProgramRun run, TreeNode? node, long cost)
    {
        TasksCreated++;
        run.CreatedCostNs += cost;
        return new SimTask(kind, run, node, cost);
    }

    /// <summary>The effects of a finished task, on the worker that ran it (its pushes go to its own deque).</summary>
    private void CompleteTask(SimWorker w, SimTask task)
    {
        TasksExecuted++;
        w.Pool.TasksExecuted++;
        switch (task.Kind)
        {
            case TaskKind.Sequential:
                PushLocal(w, NodeTask(NewNode(task.Run, null, 1, 1.0, task.Run.Seed)));
                break;
            case TaskKind.Node when !task.Node!.IsLeaf:
                TreeNode node = task.Node;
                TaskTreeShape shape = task.Run.Program.Shape;
                int b = shape.Model.BranchingFactor;
                Span<double> fractions = stackalloc double[b];
                var random = new SimRandom(node.Seed);
                shape.SplitFractions(node.Fraction, random, fractions);
                node.PendingChildren = b;
                for (int k = 0; k < b; k++)
                {
                    ulong childSeed = SimRandom.Derive(node.Seed, (ulong)k + 1);
                    PushLocal(w, NodeTask(NewNode(task.Run, node, node.Level + 1, fractions[k], childSeed)));
                }

                break;
            case TaskKind.Node:
            case TaskKind.Merge:
                NodeDone(w, task.Node!);
                break;
        }
    }

    private void NodeDone(SimWorker w, TreeNode node)
    {
        if (node.Parent is not { } parent)
        {
            RunDone(node.Run);
            return;
        }

        // The last child to finish queues the merge (§4.2.2: the parent never blocks).
        if (--parent.PendingChildren == 0)
        {
            TaskTreeShape shape = node.Run.Program.Shape;
            PushLocal(w, NewTask(TaskKind.Merge, node.Run, parent, shape.MergeCost(parent.Level, parent.Fraction)));
        }
    }

    private void RunDone(ProgramRun run)
    {
        SimProgram program = run.Program;
        program.Durations.Add(_now - run.StartNs);
        program.RunWorkNs.Add(run.CreatedCostNs);
        program.Current = null;
        if (_stopWhenDone == program)
        {
            _stopped = true;
            return;
        }

        StartRun(program); // restarted at once (§5.4.1)
    }
}
