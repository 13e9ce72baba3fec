using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Scheduling;

/// <summary>
/// Fork-join with blocking waits on a fixed pool (no thread injection): each node starts one child, runs the other
/// inline, then blocks in <c>Task.Wait</c> on the first. A waiting worker inlines the child when it is still in its own
/// deque; when a thief took it, the waiter blocks while the thief runs it. Thieves take the oldest task, i.e. the
/// outermost pending child, so the chain of "waits for a task run by" never closes into a cycle: every tree must
/// finish, with the exact leaf count, for any number of workers (a hang fails the timed wait).
/// </summary>
public sealed class BlockingWaitTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    [Theory]
    [InlineData(1, 12, 3)]
    [InlineData(2, 12, 10)]
    [InlineData(4, 12, 10)]
    public void Trees_of_blocking_waits_finish_with_the_exact_count(int workers, int depth, int rounds)
        => Run(workers, depth, rounds);

    [StressTheory]
    [Trait("Category", "Stress")]
    [InlineData(2, 16, 200)]
    [InlineData(4, 16, 300)]
    [InlineData(8, 16, 200)]
    public void Stress_trees_of_blocking_waits_finish_with_the_exact_count(int workers, int depth, int rounds)
        => Run(workers, depth, rounds);

    private static void Run(int workers, int depth, int rounds)
    {
        var scheduler = new WorkStealingTaskScheduler(workers);
        using var schedulerDisposal = BoundedDisposal.Of(scheduler);
        for (int round = 0; round < rounds; round++)
        {
            Task<long> root = Start(scheduler, () => Node(scheduler, depth));
            Assert.True(root.Wait(Timeout), $"round {round}: a tree of blocking waits did not finish within {Timeout.TotalSeconds} s");
            Assert.Equal(1L << depth, root.Result);
        }
    }

    private static long Node(TaskScheduler scheduler, int depth)
    {
        if (depth == 0)
        {
            return 1;
        }

        Task<long> left = Start(scheduler, () => Node(scheduler, depth - 1));
        long right = Node(scheduler, depth - 1);
        return left.Result + right; // a blocking wait on a worker
    }

    private static Task<long> Start(TaskScheduler scheduler, Func<long> body)
        => Task.Factory.StartNew(body, CancellationToken.None, TaskCreationOptions.None, scheduler);
}
