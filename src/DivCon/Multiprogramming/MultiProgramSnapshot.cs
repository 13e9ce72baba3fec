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
    /// <summary>Set when the pool has more workers than the CPU budget (an explicit processor list won over it); null otherwise.</summary>
    public string? BudgetWarning { get; init; }
}
