using DivCon.Scheduling;

namespace DivCon.Multiprogramming;

/// <summary>
/// A program's accounting in multiprogram mode over a window (since it was added or its statistics reset): per
/// worker slot, the time that worker served the program (busy + idle), and the program's moves.
/// </summary>
public sealed class ProgramStatistics
{
    internal ProgramStatistics(int programId, string name, SchedulerStatistics workers, long movesIn, long movesOut)
    {
        ProgramId = programId;
        Name = name;
        Workers = workers;
        MovesIn = movesIn;
        MovesOut = movesOut;
    }

    /// <summary>The program's id.</summary>
    public int ProgramId { get; }

    /// <summary>The program's name.</summary>
    public string Name { get; }

    /// <summary>Per worker slot, the counters while that worker served this program; totals on the object itself.</summary>
    public SchedulerStatistics Workers { get; }

    /// <summary>Core-time held: Σ over workers of the time they were assigned to (serving) the program.</summary>
    public TimeSpan CoreTime => Workers.BusyTime + Workers.IdleTime;

    /// <summary>Time the program's workers spent without one of its tasks while serving it.</summary>
    public TimeSpan IdleTime => Workers.IdleTime;

    /// <summary>Time the program's workers spent running its tasks.</summary>
    public TimeSpan BusyTime => Workers.BusyTime;

    /// <summary>Tasks of the program that ran.</summary>
    public long TasksExecuted => Workers.TasksExecuted;

    /// <summary>Successful steals between the program's deques.</summary>
    public long Steals => Workers.Steals;

    /// <summary>Steals from a worker of the thief's own stealing (cache) group.</summary>
    public long LocalSteals => Workers.LocalSteals;

    /// <summary>Steals from a worker of another stealing group.</summary>
    public long RemoteSteals => Workers.RemoteSteals;

    /// <summary>Workers moved to the program.</summary>
    public long MovesIn { get; }

    /// <summary>Workers moved away from the program.</summary>
    public long MovesOut { get; }
}
