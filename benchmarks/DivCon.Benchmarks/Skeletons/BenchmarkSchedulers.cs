using DivCon.Scheduling;

namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// The schedulers the skeleton benchmarks can run on, by [Params] name: the default scheduler, the BCL's
/// ConcurrentExclusiveSchedulerPair and DivCon's WorkStealingTaskScheduler with 1 or 2 workers.
/// </summary>
public static class BenchmarkSchedulers
{
    private static readonly Dictionary<string, Func<(TaskScheduler Scheduler, Action? Release)>> s_factories = new()
    {
        ["default"] = () => (TaskScheduler.Default, null),
        ["pair1"] = () => Pair(1),
        ["pair2"] = () => Pair(2),
        ["ws1"] = () => WorkStealing(1),
        ["ws2"] = () => WorkStealing(2),
    };

    public static (TaskScheduler Scheduler, Action? Release) Create(string name) =>
        s_factories.TryGetValue(name, out var factory)
            ? factory()
            : throw new ArgumentException($"Unknown scheduler '{name}'. Valid: {string.Join(", ", s_factories.Keys)}.", nameof(name));

    private static (TaskScheduler, Action?) WorkStealing(int workers)
    {
        var scheduler = new WorkStealingTaskScheduler(workers);
        return (scheduler, scheduler.Dispose);
    }

    private static (TaskScheduler, Action?) Pair(int workers)
    {
        var pair = new ConcurrentExclusiveSchedulerPair(TaskScheduler.Default, workers);
        return (pair.ConcurrentScheduler, pair.Complete);
    }
}
