namespace DivCon.Simulation.Engine;

/// <summary>A worker thread's scheduling state.</summary>
internal enum WorkerState
{
    /// <summary>Parked: uses no core until a push (or a move) wakes it.</summary>
    Blocked,

    /// <summary>Woken; becomes runnable when its wake-up latency has passed.</summary>
    Waking,

    /// <summary>Ready, waiting for a core (oversubscribed schemes only ever wait long).</summary>
    Runnable,

    /// <summary>On a core.</summary>
    Running,
}

/// <summary>The kind of a worker's current step; each kind is one accounting bucket (its index in Machine.Buckets, from 0).</summary>
internal enum StepKind
{
    None = -1,
    Task,
    Dispatch,
    Steal,
    Search,
    ContextSwitch,
    Migration,
}

/// <summary>A simulated worker thread: its pool and deque slot, where it may run, and its current step.</summary>
internal sealed class SimWorker
{
    public required int Id { get; init; }

    /// <summary>The pool it serves now.</summary>
    public required WorkPool Pool { get; set; }

    /// <summary>Its deque index in every pool (the worker slot).</summary>
    public required int Slot { get; init; }

    /// <summary>The core it is pinned to, or -1 for a free thread.</summary>
    public required int PinnedCore { get; init; }

    /// <summary>MultiProgramScheduler: the pool its slot is allocated to (it may be lent elsewhere meanwhile).</summary>
    public WorkPool? HomePool { get; set; }

    /// <summary>When it began serving <see cref="Pool"/> (the served core time's accounting).</summary>
    public long ServingSince { get; set; }

    /// <summary>A move decided while it was busy, carried out at its next task boundary.</summary>
    public WorkPool? PendingPool { get; set; }

    public WorkerState State { get; set; } = WorkerState.Blocked;

    public int Core { get; set; } = -1;

    public int LastCore { get; set; } = -1;

    /// <summary>Bumped when the current step is interrupted, so its StepDone event is recognised as stale.</summary>
    public int Stamp { get; set; }

    public StepKind Step { get; set; } = StepKind.None;

    public long StepStart { get; set; }

    public long StepEnd { get; set; }

    /// <summary>The task the current (or saved) step belongs to.</summary>
    public SimTask? Task { get; set; }

    /// <summary>Task step: its work in ns of the task running alone (its cost, or what preemption left of it).</summary>
    public double StepWork { get; set; }

    /// <summary>Task step of a memory-bound program: its program's group (Machine.Memory.cs), or null.</summary>
    public Machine.MemoryGroup? Memory { get; set; }

    /// <summary>Task step of a memory-bound program: the group clock value at which it finishes.</summary>
    public double VirtualEnd { get; set; }

    /// <summary>Task step of a memory-bound program: when it joined its group (ties of <see cref="VirtualEnd"/>).</summary>
    public long MemorySeq { get; set; }

    /// <summary>A step interrupted by preemption, resumed when the worker gets a core again.</summary>
    public StepKind SavedStep { get; set; } = StepKind.None;

    /// <summary>What the saved step had left, ns: a task step's work, another step's time.</summary>
    public double SavedLeft { get; set; }

    /// <summary>The task of the saved step, if any.</summary>
    public SimTask? SavedTask { get; set; }

    /// <summary>Resumed on another core than last time: it pays a cold start before going on.</summary>
    public bool NeedsColdStart { get; set; }

    /// <summary>The program of the last task it ran (shared scheduler: a task of another program starts cold).</summary>
    public SimProgram? LastProgram { get; set; }

    /// <summary>
    /// Looking for work (woken, or out of local work and stealing): counted in its pool's
    /// <see cref="WorkPool.Searching"/>, which throttles wake-ups.
    /// </summary>
    public bool Searching { get; set; }

    /// <summary>Failed steal attempts since it last found work.</summary>
    public int SearchAttempts { get; set; }

    /// <summary>Idle lending: lent away from its home (it looks at its home's demand at each task boundary: recall).</summary>
    public bool Away { get; set; }
}
