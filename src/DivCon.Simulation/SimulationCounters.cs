namespace DivCon.Simulation;

/// <summary>Counters of one scheme's multiprogram simulation (no wall-clock quantity).</summary>
/// <param name="Events">Events processed.</param>
/// <param name="Tasks">Tasks executed.</param>
/// <param name="Steals">Successful steals.</param>
/// <param name="FailedSteals">Failed steal attempts.</param>
/// <param name="ContextSwitches">Core switches between worker threads.</param>
/// <param name="Preemptions">Workers preempted at the end of a time slice.</param>
/// <param name="ColdStarts">Threads resumed on another core (free oversubscription).</param>
/// <param name="WorkerMoves">MultiProgramScheduler workers moved between programs (reallocations and loans).</param>
/// <param name="Loans">Idle-lending loans.</param>
/// <param name="ProgramSwitches">Shared scheduler: tasks started cold because the worker's previous task was another program's.</param>
/// <param name="PolicyCalls">Calls of the policy's Decide.</param>
/// <param name="CoreNs">Core-time per bucket, ns: task (work), dispatch, steal, search, contextSwitch, migration, inflation (time tasks ran beyond their work: memory contention), idle.</param>
/// <param name="AllocatedCoreNs">Per program, core-time its allocation gave it (partitioned schemes), or null.</param>
public sealed record SimulationCounters(
    long Events,
    long Tasks,
    long Steals,
    long FailedSteals,
    long ContextSwitches,
    long Preemptions,
    long ColdStarts,
    long WorkerMoves,
    long Loans,
    long ProgramSwitches,
    int PolicyCalls,
    IReadOnlyDictionary<string, long> CoreNs,
    IReadOnlyList<long>? AllocatedCoreNs)
{
    /// <summary>
    /// Per program, core-time its workers served it (partitioned schemes), or null. Below <see cref="AllocatedCoreNs"/>
    /// by the time its allocated cores were still finishing another program's task (a move waits for the task boundary).
    /// </summary>
    public IReadOnlyList<long>? ServedCoreNs { get; init; }

    /// <summary>Lent workers that went home at a task boundary because their home program had a queued task (recall).</summary>
    public long Recalls { get; init; }

    /// <summary>Decisions started by a change of demand (demand-driven repartitioning).</summary>
    public int DemandDecisions { get; init; }

    /// <summary>Policy decisions (or borrower choices) the repartitioner rejected.</summary>
    public int Rejections { get; init; }

    /// <summary>
    /// With online scalability (<see cref="SimulationRequest.OnlineScalability"/>), per program its online estimate at
    /// the end of the phase (mean over the repetitions; 1 where there was none), beside the model's
    /// (<see cref="IsolatedResult.Scalability"/>); null otherwise.
    /// </summary>
    public IReadOnlyList<double>? OnlineScalability { get; init; }
}
