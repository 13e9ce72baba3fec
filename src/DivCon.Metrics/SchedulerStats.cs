namespace DivCon.Metrics;

/// <summary>
/// What one scheduler serving a program says about itself; a null field means the scheduler cannot tell (for
/// example the TPL default scheduler's worker count is the thread pool's, which injects threads).
/// </summary>
/// <param name="Kind">The scheduler's type or role, for reports (for example <c>ThreadPoolTaskScheduler</c>).</param>
/// <param name="SchedulerId">The <see cref="TaskScheduler.Id"/>: equal ids mean programs share one scheduler.</param>
/// <param name="Workers">Worker threads serving this program (for a partitioned pool: the workers its allocation gives it now).</param>
/// <param name="Pinned">Whether those workers are pinned to processors.</param>
/// <param name="Processors">The processors the workers are pinned to, if pinned.</param>
/// <param name="IdleSeconds">Total idle time of the workers while serving the program.</param>
/// <param name="TasksExecuted">Tasks executed.</param>
/// <param name="Steals">Successful steals.</param>
/// <param name="CoreSeconds">Core-time the program held (Σ over workers of time assigned to it).</param>
/// <param name="BusySeconds">Total time the workers spent running tasks.</param>
/// <param name="PoolId">For a partitioned scheme: which worker pool (MultiProgramScheduler) the program is in; equal ids mean one pool.</param>
/// <param name="PoolWorkers">For a partitioned scheme: the workers of the whole pool.</param>
/// <param name="MovesIn">For a partitioned scheme: workers moved to the program (arrivals, repartitionings, loans).</param>
/// <param name="MovesOut">For a partitioned scheme: workers moved away from the program.</param>
/// <param name="Repartitions">For a partitioned scheme: repartitionings the pool carried out (policy calls).</param>
/// <param name="OnlineScalability">A partitioned pool's online scalability estimate of the program at the end of the phase (null: none yet, or another scheduler).</param>
/// <param name="ScalabilityConfidence">The confidence of <paramref name="OnlineScalability"/>, in [0, 1].</param>
public sealed record SchedulerStats(
    string Kind,
    int SchedulerId,
    int? Workers,
    bool? Pinned,
    IReadOnlyList<int>? Processors = null,
    double? IdleSeconds = null,
    long? TasksExecuted = null,
    long? Steals = null,
    double? CoreSeconds = null,
    double? BusySeconds = null,
    int? PoolId = null,
    int? PoolWorkers = null,
    long? MovesIn = null,
    long? MovesOut = null,
    long? Repartitions = null,
    double? OnlineScalability = null,
    double? ScalabilityConfidence = null);
