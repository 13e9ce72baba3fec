namespace DivCon.Harness.Schemes;

/// <summary>What a scheme's schedulers can tell the harness after (or during) a run.</summary>
[Flags]
public enum SchemeStatistics
{
    /// <summary>Nothing beyond the arrangement itself.</summary>
    None = 0,

    /// <summary>How many worker threads each scheduler has (fixed, no thread injection).</summary>
    WorkerCounts = 1,

    /// <summary>Which processors the workers are pinned to.</summary>
    Pinning = 2,

    /// <summary>Per-worker idle time (for idle-time-specific factored speedups).</summary>
    IdleTime = 4,

    /// <summary>Successful steals and the time spent in them.</summary>
    Steals = 8,

    /// <summary>Core-time each program held (MultiProgramScheduler accounting), for per-program factored speedups.</summary>
    CoreTimePerProgram = 16,

    /// <summary>The allocation timeline: cores held by each program over time.</summary>
    AllocationTimeline = 32,
}
