using DivCon.Scheduling;

namespace DivCon.Harness.Schemes;

/// <summary>
/// The standalone work-stealing scheduler as the schemes ask for it: a <see cref="SchedulerRequest"/> becomes a
/// <see cref="WorkStealingTaskScheduler"/> with that many free workers, or one worker pinned to each requested
/// processor (strict: where pinning is impossible the scheme fails to build, it never runs unpinned under a pinned
/// scheme's name). Its statistics window starts when it is made, so a snapshot covers the phase it served.
/// </summary>
public static class WorkStealingSchedulers
{
    /// <summary>Builds the scheduler for <paramref name="request"/>; disposing the handle's lifetime shuts it down.</summary>
    /// <exception cref="ArgumentException">Processors that are empty, repeated or outside the process's affinity mask.</exception>
    /// <exception cref="PlatformNotSupportedException">Pinning was requested and is impossible here.</exception>
    public static SchedulerHandle Create(SchedulerRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        WorkStealingTaskScheduler scheduler = request.PinTo is null
            ? new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { WorkerCount = request.Workers, Budget = request.Budget, ThreadName = $"ws {request.Label}", CompensateBlocking = false })
            : new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { Processors = request.PinTo, Budget = request.Budget, ThreadName = $"ws {request.Label}", CompensateBlocking = false });
        return new SchedulerHandle(scheduler, () => Stats(scheduler), scheduler);
    }

    /// <summary>What <paramref name="scheduler"/> reports now, over its current statistics window.</summary>
    public static SchedulerStats Stats(WorkStealingTaskScheduler scheduler)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        SchedulerStatistics s = scheduler.GetStatistics();
        return new SchedulerStats(
            nameof(WorkStealingTaskScheduler),
            scheduler.Id,
            scheduler.WorkerCount,
            scheduler.IsPinned,
            scheduler.IsPinned ? scheduler.PinnedProcessors : null,
            IdleSeconds: s.IdleTime.TotalSeconds,
            TasksExecuted: s.TasksExecuted,
            Steals: s.Steals,
            BusySeconds: s.BusyTime.TotalSeconds);
    }
}
