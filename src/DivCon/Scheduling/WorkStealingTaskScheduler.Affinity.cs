namespace DivCon.Scheduling;

// Worker count and pinning: which processors, and what happens where pinning is impossible.
public sealed partial class WorkStealingTaskScheduler
{
    /// <summary>
    /// Creates a scheduler with one worker pinned to each of <paramref name="processors"/> (the affinity scheduler).
    /// </summary>
    /// <param name="processors">Distinct processor ids, each in the process's affinity mask.</param>
    /// <param name="bestEffort">When pinning is impossible here: false throws, true runs unpinned (see <see cref="IsPinned"/>).</param>
    /// <exception cref="ArgumentException">The set is empty, repeats an id, or names a processor this process may not use.</exception>
    /// <exception cref="PlatformNotSupportedException">Pinning is impossible here and <paramref name="bestEffort"/> is false.</exception>
    public static WorkStealingTaskScheduler CreatePinned(IEnumerable<int> processors, bool bestEffort = false)
    {
        ArgumentNullException.ThrowIfNull(processors);
        return new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions
        {
            Processors = ThreadAffinity.ValidateProcessors(processors, nameof(processors)),
            BestEffortPinning = bestEffort,
        });
    }

    private static PoolPinning ResolveWorkers(WorkStealingSchedulerOptions options, CpuBudget budget)
    {
        if (options.WorkerCount is int requested)
        {
            ValidateWorkerCount(requested, nameof(options.WorkerCount));
        }

        if (options.Processors is null)
        {
            return PoolPinning.Unpinned(options.WorkerCount ?? Math.Min(budget.Cores, WorkStealingSchedulerOptions.MaxWorkerCount));
        }

        int[] processors = ThreadAffinity.ValidateProcessors(options.Processors, nameof(options.Processors)).ToArray();
        if (options.WorkerCount is int count && count != processors.Length)
        {
            throw new ArgumentException(
                $"WorkerCount is {count} but {processors.Length} processors were given; a pinned scheduler has one worker per processor (leave WorkerCount unset).",
                nameof(options));
        }

        return PoolPinning.Pinned(processors, options.BestEffortPinning);
    }
}
