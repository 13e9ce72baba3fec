using DivCon.Multiprogramming;
using DivCon.Scheduling;

namespace DivCon.Tests.Skeletons;

/// <summary>
/// The schedulers the skeleton and sample tests run on, in one place: "1, 2 and 4 workers" of the BCL's
/// ConcurrentExclusiveSchedulerPair and of DivCon's WorkStealingTaskScheduler, a pinned WorkStealingTaskScheduler
/// (unpinned where the OS cannot pin), a program of a MultiProgramScheduler holding 1 and 2 workers, and the
/// default scheduler.
/// </summary>
public static class TestSchedulers
{
    private static readonly Dictionary<string, Func<SchedulerLease>> s_factories = new()
    {
        ["pair1"] = () => SchedulerLease.ForPair(1),
        ["pair2"] = () => SchedulerLease.ForPair(2),
        ["pair4"] = () => SchedulerLease.ForPair(4),
        ["ws1"] = () => SchedulerLease.Owned(new WorkStealingTaskScheduler(1)),
        ["ws2"] = () => SchedulerLease.Owned(new WorkStealingTaskScheduler(2)),
        ["ws4"] = () => SchedulerLease.Owned(new WorkStealingTaskScheduler(4)),
        ["ws2pinned"] = () => SchedulerLease.Owned(new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions
        {
            Processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray(),
            BestEffortPinning = true,
        })),
        ["mps1"] = () => SchedulerLease.ForProgram(workers: 1),
        ["mps2"] = () => SchedulerLease.ForProgram(workers: 2),
        ["default"] = () => new SchedulerLease(TaskScheduler.Default, release: null),
    };

    /// <summary>Every scheduler name.</summary>
    public static IReadOnlyCollection<string> All => s_factories.Keys;

    /// <summary>MemberData source: every scheduler name.</summary>
    public static TheoryData<string> Names
    {
        get
        {
            var data = new TheoryData<string>();
            foreach (string name in s_factories.Keys)
            {
                data.Add(name);
            }

            return data;
        }
    }

    /// <summary>A fresh scheduler for <paramref name="name"/>; dispose the lease at the end of the test.</summary>
    public static SchedulerLease Create(string name) => s_factories[name]();
}

/// <summary>A scheduler for one test, with whatever must be released after it.</summary>
public sealed class SchedulerLease : IDisposable
{
    private readonly Action? _release;

    public SchedulerLease(TaskScheduler scheduler, Action? release)
    {
        Scheduler = scheduler;
        _release = release;
    }

    public TaskScheduler Scheduler { get; }

    /// <summary>For a ConcurrentExclusiveSchedulerPair: completes when every task queued to it has run.</summary>
    public ConcurrentExclusiveSchedulerPair? Pair { get; private init; }

    public static SchedulerLease ForPair(int workers)
    {
        var pair = new ConcurrentExclusiveSchedulerPair(TaskScheduler.Default, workers);
        return new SchedulerLease(pair.ConcurrentScheduler, pair.Complete) { Pair = pair };
    }

    /// <summary>
    /// The scheduler of the only program of a new MultiProgramScheduler with <paramref name="workers"/> workers (fewer
    /// if the process may use fewer processors), pinned where possible; the lease disposes the MultiProgramScheduler.
    /// </summary>
    public static SchedulerLease ForProgram(int workers)
    {
        var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Processors = ThreadAffinity.GetProcessAffinity().Take(workers).ToArray(),
            BestEffortPinning = true,
        });
        ProgramHandle program = mps.AddProgram("skeleton test");
        return new SchedulerLease(program.Scheduler, () => Assert.True(Task.Run(mps.Dispose).Wait(TimeSpan.FromSeconds(30)), "Dispose did not return within 30 s."));
    }

    /// <summary>A scheduler the lease owns and disposes.</summary>
    public static SchedulerLease Owned<T>(T scheduler)
        where T : TaskScheduler, IDisposable => new(scheduler, scheduler.Dispose);

    public void Dispose() => _release?.Invoke();
}
