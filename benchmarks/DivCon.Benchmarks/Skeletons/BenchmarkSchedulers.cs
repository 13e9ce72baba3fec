namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// The schedulers the skeleton benchmarks can run on, by [Params] name. To add the work-stealing scheduler, add one
/// line, e.g. <c>["ws2"] = () => { var s = new WorkStealingTaskScheduler(2); return (s, s.Dispose); },</c> and the name
/// to the benchmarks' [Params].
/// </summary>
public static class BenchmarkSchedulers
{
    private static readonly Dictionary<string, Func<(TaskScheduler Scheduler, Action? Release)>> s_factories = new()
    {
        ["default"] = () => (TaskScheduler.Default, null),
        ["pair1"] = () => Pair(1),
        ["pair2"] = () => Pair(2),
    };

    public static (TaskScheduler Scheduler, Action? Release) Create(string name) =>
        s_factories.TryGetValue(name, out var factory)
            ? factory()
            : throw new ArgumentException($"Unknown scheduler '{name}'. Valid: {string.Join(", ", s_factories.Keys)}.", nameof(name));

    private static (TaskScheduler, Action?) Pair(int workers)
    {
        var pair = new ConcurrentExclusiveSchedulerPair(TaskScheduler.Default, workers);
        return (pair.ConcurrentScheduler, pair.Complete);
    }
}
