using System.Collections.Concurrent;
using DivCon.Multiprogramming;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Scheduling;

/// <summary>Issue 10, must show 1: cache-group-first stealing with a synthetic topology of two cache groups.</summary>
public sealed class RestrictedStealingTests
{
    private const int ChildrenPerOwner = 64;
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(60);

    // 4 processors in two cache groups {0,1} and {2,3}; unpinned worker i counts as on processor i.
    private static CpuTopology TwoGroups() => new(
        [0, 1, 2, 3],
        [new CacheGroup([0, 1], level: 3), new CacheGroup([2, 3], level: 3)],
        [new NumaNode(0, [0, 1, 2, 3])]);

    private static Task Start(TaskScheduler scheduler, Action action)
        => Task.Factory.StartNew(action, CancellationToken.None, TaskCreationOptions.None, scheduler);

    /// <summary>
    /// Slots 0 (group A) and 2 (group B) each fill their deque and block; slot 3 blocks; slot 1 (group A) is then the
    /// only free worker, so it steals every child. With CacheGroupFirst it must take all of slot 0's (its own group)
    /// before any of slot 2's, and still take slot 2's once its own group has none.
    /// </summary>
    [Fact]
    public void A_thief_steals_from_its_own_cache_group_first_and_then_from_the_other_group()
    {
        var scheduler = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions
        {
            WorkerCount = 4,
            StealingScope = StealingScope.CacheGroupFirst,
            StealingTopology = TwoGroups(),
        });
        var fixture = new WorkStealingFixture(scheduler);
        using var allStarted = new CountdownEvent(4);
        using var pushed = new CountdownEvent(2);
        using var release = new ManualResetEventSlim();
        var order = new ConcurrentQueue<(int Origin, int RanOn)>();
        var children = new ConcurrentBag<Task>();
        try
        {
            Task[] roots = Enumerable.Range(0, 4).Select(_ => Start(scheduler, () =>
            {
                int slot = Worker.Current!.Slot;
                allStarted.Signal();
                // Each root blocks until all four have started, so the four roots are on four distinct workers.
                Assert.True(allStarted.Wait(Bound), "The four roots did not start on four workers.");
                if (slot is 0 or 2)
                {
                    for (int i = 0; i < ChildrenPerOwner; i++)
                    {
                        children.Add(Start(scheduler, () => order.Enqueue((slot, Worker.Current!.Slot))));
                    }

                    pushed.Signal();
                    Assert.True(release.Wait(Bound), "Not released.");
                }
                else if (slot == 3)
                {
                    Assert.True(release.Wait(Bound), "Not released.");
                }
                else
                {
                    // Slot 1 becomes the thief once both deques are full.
                    Assert.True(pushed.Wait(Bound), "The owners did not push.");
                }
            })).ToArray();

            Wait.Until(() => order.Count == 2 * ChildrenPerOwner, "the thief ran every child");
            (int Origin, int RanOn)[] ran = order.ToArray();
            Assert.All(ran, r => Assert.Equal(1, r.RanOn));
            Assert.All(ran.Take(ChildrenPerOwner), r => Assert.Equal(0, r.Origin));
            Assert.All(ran.Skip(ChildrenPerOwner), r => Assert.Equal(2, r.Origin));

            Wait.Until(() => scheduler.GetStatistics().Workers[1].Steals == 2 * ChildrenPerOwner, "the thief counted its steals");
            WorkerStatistics thief = scheduler.GetStatistics().Workers[1];
            Assert.Equal(ChildrenPerOwner, thief.LocalSteals);
            Assert.Equal(ChildrenPerOwner, thief.RemoteSteals);

            release.Set();
            Wait.For(Task.WhenAll(roots.Concat(children)), Bound, "the roots and children");
            SchedulerStatistics total = scheduler.GetStatistics();
            Assert.Equal(total.Steals, total.LocalSteals + total.RemoteSteals);
            Assert.Equal(total.StealTime + total.WaitingTime, total.IdleTime);
        }
        finally
        {
            release.Set();
            fixture.Dispose();
        }
    }

    [Theory]
    [InlineData(StealingScope.All)]
    [InlineData(StealingScope.CacheGroupFirst)]
    public void A_spawn_tree_runs_every_task_and_steals_are_split_by_level(StealingScope scope)
    {
        var scheduler = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions
        {
            WorkerCount = 4,
            StealingScope = scope,
            StealingGroups = [[0, 1], [2, 3]],
        });
        var fixture = new WorkStealingFixture(scheduler);
        try
        {
            long count = 0;
            void Node(int depth)
            {
                Interlocked.Increment(ref count);
                if (depth > 0)
                {
                    Task a = Task.Factory.StartNew(() => Node(depth - 1));
                    Task b = Task.Factory.StartNew(() => Node(depth - 1));
                    Task.WaitAll(a, b);
                }
            }

            Wait.For(Start(scheduler, () => Node(14)), Bound, "the spawn tree");
            Assert.Equal((1L << 15) - 1, Interlocked.Read(ref count));
            SchedulerStatistics s = scheduler.GetStatistics();
            Assert.Equal(s.Steals, s.LocalSteals + s.RemoteSteals);
            Assert.All(s.Workers, w => Assert.Equal(w.Steals, w.LocalSteals + w.RemoteSteals));
        }
        finally
        {
            fixture.Dispose();
        }
    }

    /// <summary>Long version: repeated trees, scopes and group shapes (catches a lost task or wake-up in the widened sweep).</summary>
    [StressTheory]
    [Trait("Category", "Stress")]
    [InlineData(StealingScope.CacheGroupFirst)]
    [InlineData(StealingScope.All)]
    public void Stress_repeated_spawn_trees_with_stealing_groups(StealingScope scope)
    {
        int[][][] shapes = [[[0, 1], [2, 3]], [[0], [1], [2], [3]], [[0, 1, 2], [3]]];
        foreach (int[][] shape in shapes)
        {
            for (int round = 0; round < 20; round++)
            {
                A_tree_with_groups_runs_every_task(scope, shape, depth: 16);
            }
        }
    }

    private static void A_tree_with_groups_runs_every_task(StealingScope scope, int[][] groups, int depth)
    {
        // The continuation-completed spawn tree of the contract tests (no blocking waits).
        var scheduler = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions
        {
            WorkerCount = 4,
            StealingScope = scope,
            StealingGroups = groups,
        });
        var fixture = new WorkStealingFixture(scheduler);
        try
        {
            Assert.Equal(SpawnTree.Size(depth), SpawnTree.Run(scheduler, depth, Bound));
            Wait.Until(
                () => scheduler.GetStatistics() is var s && s.Steals == s.LocalSteals + s.RemoteSteals,
                "the steal counts add up");
        }
        finally
        {
            fixture.Dispose();
        }
    }

    [Fact]
    public void Without_groups_every_steal_counts_as_local()
    {
        var scheduler = new WorkStealingTaskScheduler(2);
        var fixture = new WorkStealingFixture(scheduler);
        try
        {
            Wait.For(Start(scheduler, () => Parallel.For(0, 2000, new ParallelOptions { TaskScheduler = scheduler }, _ => Thread.SpinWait(50))), Bound);
            SchedulerStatistics s = scheduler.GetStatistics();
            Assert.Equal(0, s.RemoteSteals);
            Assert.Equal(s.Steals, s.LocalSteals);
        }
        finally
        {
            fixture.Dispose();
        }
    }

    public static TheoryData<int[][], string> BadGroups => new()
    {
        { [[0, 1], [2]], "Worker 3 is in no stealing group" },
        { [[0, 1], [1, 2, 3]], "Worker 1 is in two stealing groups" },
        { [[0, 1, 2, 3, 4]], "worker indexes go from 0 to 3" },
        { [[0, 1, 2, 3], []], "is empty" },
    };

    [Theory]
    [MemberData(nameof(BadGroups))]
    public void Stealing_groups_that_do_not_partition_the_workers_are_rejected(int[][] groups, string message)
    {
        ArgumentException e = Assert.ThrowsAny<ArgumentException>(() => new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions
        {
            WorkerCount = 4,
            StealingScope = StealingScope.CacheGroupFirst,
            StealingGroups = groups,
        }));
        Assert.Contains(message, e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void An_undefined_scope_is_rejected()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions
        {
            WorkerCount = 2,
            StealingScope = (StealingScope)7,
        }));
        Assert.Throws<ArgumentOutOfRangeException>(() => new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Unpinned = true,
            StealingScope = (StealingScope)7,
        }));
    }

    /// <summary>
    /// A program of a MultiProgramScheduler with every worker in its own group: the thief's own group never has work,
    /// so every steal must widen to the other group (remote), and every task still runs.
    /// </summary>
    [Fact]
    public void A_program_with_single_worker_groups_steals_only_remotely_and_runs_every_task()
    {
        int[] processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray();
        var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Processors = processors,
            Unpinned = true,
            StealingScope = StealingScope.CacheGroupFirst,
            StealingGroups = Enumerable.Range(0, processors.Length).Select(i => (IReadOnlyList<int>)[i]).ToArray(),
        });
        using var mpsDisposal = BoundedDisposal.Of(mps);
        ProgramHandle program = mps.AddProgram("grouped");
        long count = 0;
        Wait.For(
            Start(program.Scheduler, () => Parallel.For(0, 5000, new ParallelOptions { TaskScheduler = program.Scheduler }, _ =>
            {
                Interlocked.Increment(ref count);
                Thread.SpinWait(20);
            })),
            Bound,
            "the parallel loop");
        Assert.Equal(5000, Interlocked.Read(ref count));
        ProgramStatistics s = program.GetStatistics();
        Assert.Equal(0, s.LocalSteals);
        Assert.Equal(s.Steals, s.RemoteSteals);
    }
}
