using DivCon.Scheduling;

namespace DivCon.Tests.Scheduling;

/// <summary>
/// A compensating worker that steals under stealing scope All, with stealing groups set (as the harness sets them for
/// the factored runs): found when two workers under a 1-CPU cgroup quota were throttled long enough to look blocked, a
/// compensating worker was added, and its first steal indexed the stealing groups, which cover only the worker slots,
/// with its own slot: an IndexOutOfRangeException in the worker loop, which ended the process.
/// </summary>
public sealed class CompensatingStealTests
{
    private const int Children = 32;
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(60);

    [Fact]
    public void A_compensating_worker_steals_from_a_blocked_workers_deque_and_the_steal_is_not_remote()
    {
        using var scheduler = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions
        {
            WorkerCount = 1,
            StealingGroups = [[0]],
            CompensationDelay = TimeSpan.FromMilliseconds(20),
        });
        using var allRan = new CountdownEvent(Children);

        // The root pushes its children onto its own worker's deque, then blocks until they have all run: only a
        // compensating worker can run them, and only by stealing them from that deque.
        Task<bool> root = Task.Factory.StartNew(() =>
        {
            for (int i = 0; i < Children; i++)
            {
                Task.Factory.StartNew(() => allRan.Signal());
            }

            return allRan.Wait(Bound);
        }, CancellationToken.None, TaskCreationOptions.None, scheduler);

        Assert.True(root.Wait(Bound), "The root did not finish: its children were never stolen.");
        Assert.True(root.Result, "The children did not all run.");
        SchedulerStatistics statistics = scheduler.GetStatistics();
        Assert.True(statistics.Steals >= 1, $"steals: {statistics.Steals}");
        Assert.Equal(0, statistics.RemoteSteals);
        Assert.Equal(statistics.Steals, statistics.LocalSteals);
    }
}
