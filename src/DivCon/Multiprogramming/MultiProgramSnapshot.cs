namespace DivCon.Multiprogramming;

/// <summary>A consistent-enough view of the pool for checks and displays: who each worker serves, and the counts.</summary>
/// <param name="Timestamp">When it was taken (<see cref="System.Diagnostics.Stopwatch.GetTimestamp"/> ticks).</param>
/// <param name="WorkerPrograms">Per worker slot, the id of the program it is assigned to, or null for none.</param>
/// <param name="CoresByProgram">Per program id, the worker slots the allocation in force gives it (every registered program appears).</param>
/// <param name="AvailableTasksByProgram">Per program id, its available tasks at the time.</param>
/// <param name="WorkerServing">Per worker slot, the program it is serving now: it lags its assignment until the task it is running ends.</param>
public sealed record MultiProgramSnapshot(
    long Timestamp,
    IReadOnlyList<int?> WorkerPrograms,
    IReadOnlyDictionary<int, int> CoresByProgram,
    IReadOnlyDictionary<int, int> AvailableTasksByProgram,
    IReadOnlyList<int?> WorkerServing)
{
    /// <summary>
    /// Per program id, the pool workers serving it at the time (<see cref="ProgramHandle.ServedWorkers"/>): its cores
    /// in fact, beside <see cref="CoresByProgram"/>, the cores it is assigned.
    /// </summary>
    public IReadOnlyDictionary<int, int> ServedByProgram { get; init; } = new Dictionary<int, int>();

    /// <summary>
    /// Moves decided but not yet made: workers assigned to one program while still serving another, because a move
    /// takes effect only when the task in hand ends. Each with its age; a long one means a long task.
    /// </summary>
    public IReadOnlyList<PendingMove> PendingMoves { get; init; } = [];

    /// <summary>
    /// Per program id, the scalability its policy was given at the last repartitioning, where it came from and the
    /// online estimate with its confidence (<see cref="ProgramHandle.ScalabilityState"/>).
    /// </summary>
    public IReadOnlyDictionary<int, ProgramScalability> ScalabilityByProgram { get; init; } = new Dictionary<int, ProgramScalability>();

    /// <summary>
    /// Per worker slot, the id of the program the allocation in force gives it (its home: <see cref="CoresByProgram"/>
    /// counts these), or null for none. It differs from <see cref="WorkerPrograms"/> while the worker is lent to another
    /// program (idle lending); a program with queued tasks whose home worker is lent gets it back at that worker's next
    /// task boundary (a recall).
    /// </summary>
    public IReadOnlyList<int?> WorkerHomes { get; init; } = [];

    /// <summary>
    /// Per worker slot, the operating system's id of the worker's thread: on Linux the kernel's thread id (the TID of
    /// <c>top -H</c>, <c>perf</c> and <c>/proc/self/task/TID</c>), 0 elsewhere or before the thread started. For
    /// telling a worker that is waiting for a processor (runnable, not running: its CPU time does not advance) from one
    /// that DivCon keeps busy or parked.
    /// </summary>
    public IReadOnlyList<int> WorkerThreadIds { get; init; } = [];

    /// <summary>Set when the pool has more workers than the CPU budget (an explicit processor list won over it); null otherwise.</summary>
    public string? BudgetWarning { get; init; }
}

/// <summary>A worker assigned to one program while still inside a task of another (<see cref="MultiProgramSnapshot.PendingMoves"/>).</summary>
/// <param name="Worker">The worker slot.</param>
/// <param name="FromProgramId">The program whose task it is still running, or null for none.</param>
/// <param name="ToProgramId">The program it is assigned to, or null for none.</param>
/// <param name="Age">How long ago the move was decided.</param>
public sealed record PendingMove(int Worker, int? FromProgramId, int? ToProgramId, TimeSpan Age);
