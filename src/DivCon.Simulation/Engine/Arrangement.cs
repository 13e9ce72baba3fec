namespace DivCon.Simulation.Engine;

/// <summary>How a scheme arranges workers, cores and queues.</summary>
internal enum Arrangement
{
    /// <summary>One work-stealing scheduler with a pinned worker per core serving every program's tasks (also the isolated runs).</summary>
    SharedPool,

    /// <summary>One scheduler per program, a free (unpinned) worker per core each; the OS time-slices them over all cores.</summary>
    OversubscribedFree,

    /// <summary>One scheduler per program, a worker pinned to each core each; every core time-slices its own workers.</summary>
    OversubscribedPinned,

    /// <summary>The MultiProgramScheduler: a pinned worker per core, each serving one program at a time as a policy decides.</summary>
    Partitioned,
}
