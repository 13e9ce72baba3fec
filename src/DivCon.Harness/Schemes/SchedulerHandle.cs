namespace DivCon.Harness.Schemes;

/// <summary>A scheduler built for a scheme, with how to read its statistics and how to shut it down.</summary>
/// <param name="Scheduler">The scheduler programs issue tasks to.</param>
/// <param name="Stats">Reads its statistics now.</param>
/// <param name="Lifetime">Disposed when the phase ends (usually the scheduler itself); null if nothing to dispose.</param>
public sealed record SchedulerHandle(TaskScheduler Scheduler, Func<SchedulerStats> Stats, IDisposable? Lifetime);
