namespace DivCon.Simulation;

/// <summary>
/// The modelled costs of the machine and the schedulers, in integer nanoseconds. Every default is a stated guess of
/// the order of magnitude on a current x86 server (see docs/simulation.md); all are editable on the command line.
/// </summary>
public sealed record SimulationParameters
{
    /// <summary>Taking a task from the worker's own deque or a global queue and starting it (queue operation, task object).</summary>
    public long DispatchNs { get; init; } = 200;

    /// <summary>A successful steal from another worker's deque (cache misses on the victim's deque and the task's data).</summary>
    public long StealNs { get; init; } = 1_000;

    /// <summary>A failed steal attempt (the victim's deque was empty).</summary>
    public long FailedStealNs { get; init; } = 250;

    /// <summary>Failed steal attempts an idle worker makes before it blocks (it must not burn a core that belongs to someone else).</summary>
    public int SpinAttempts { get; init; } = 64;

    /// <summary>From a task being queued to a blocked worker running again (OS wake-up latency).</summary>
    public long WakeNs { get; init; } = 5_000;

    /// <summary>Time slice of the OS scheduler when more workers are runnable than cores (oversubscribed schemes).</summary>
    public long QuantumNs { get; init; } = 4_000_000;

    /// <summary>Switching a core from one worker thread to another.</summary>
    public long ContextSwitchNs { get; init; } = 5_000;

    /// <summary>
    /// A worker starting cold: a MultiProgramScheduler worker moved to another program, or an OS thread resumed on a
    /// different core than it last ran on (the free oversubscribed scheme): the caches it finds hold someone else's data.
    /// </summary>
    public long MigrationNs { get; init; } = 20_000;

    /// <summary>The MultiProgramScheduler's repartitioning interval (docs/DESIGN.md §3: 100 ms).</summary>
    public long RepartitionIntervalNs { get; init; } = 100_000_000;

    /// <summary>
    /// From a program's demand changing to the demand-driven decision taking effect (MultiProgramScheduler: waking the
    /// repartitioner thread, one decision under the lock): a guess of the order of a thread wake-up plus a decision.
    /// </summary>
    public long DemandLatencyNs { get; init; } = 50_000;

    /// <summary>Cores per last-level-cache group that placement follows (0: a flat machine, no groups).</summary>
    public int CoresPerCacheGroup { get; init; }

    /// <summary>
    /// β, the machine's memory contention: how much slower a task of the work-inflation microbenchmark (memory
    /// intensity 1) runs when every other core runs one too, minus 1. A task of intensity m runs 1 + β·m·U times
    /// slower than alone, U being the mean intensity of the tasks on the other cores (docs/simulation.md, "Work
    /// inflation"). 0 (the default here) leaves memory free; <c>divcon simulate</c> takes it from the machine model
    /// (<see cref="MachineModel"/>) that comes with the program models.
    /// </summary>
    public double MemoryContention { get; init; }

    /// <summary>Parameters with every overhead zero (for tests against theory); the quantum and interval are kept.</summary>
    public static SimulationParameters Ideal { get; } = new()
    {
        DispatchNs = 0,
        StealNs = 0,
        FailedStealNs = 0,
        WakeNs = 0,
        ContextSwitchNs = 0,
        MigrationNs = 0,
    };

    /// <summary>Every problem with these parameters, one sentence each; empty when they are valid.</summary>
    public IReadOnlyList<string> Validate()
    {
        (long Value, string Name)[] nonNegative =
        [
            (DispatchNs, nameof(DispatchNs)), (StealNs, nameof(StealNs)), (FailedStealNs, nameof(FailedStealNs)), (WakeNs, nameof(WakeNs)),
            (ContextSwitchNs, nameof(ContextSwitchNs)), (MigrationNs, nameof(MigrationNs)), (DemandLatencyNs, nameof(DemandLatencyNs)),
            (CoresPerCacheGroup, nameof(CoresPerCacheGroup)), (SpinAttempts, nameof(SpinAttempts)),
        ];
        var problems = nonNegative.Where(p => p.Value < 0).Select(p => $"{p.Name} must not be negative; got {p.Value}.").ToList();
        problems.AddIf(QuantumNs <= 0, $"QuantumNs must be positive; got {QuantumNs}.");
        problems.AddIf(!(MemoryContention >= 0) || !double.IsFinite(MemoryContention), $"MemoryContention must be finite and 0 or more; got {MemoryContention}.");
        problems.AddIf(RepartitionIntervalNs <= 0, $"RepartitionIntervalNs must be positive; got {RepartitionIntervalNs}.");

        return problems;
    }
}
