using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

public sealed class AsynchronousSkeletonTests
{
    [Theory]
    [MemberData(nameof(TestSchedulers.Names), MemberType = typeof(TestSchedulers))]
    public async Task Result_IsCorrect_AndEveryMuscleRunsOnTheGivenScheduler(string schedulerName)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        foreach (DivConExecution execution in new[] { DivConExecution.Asynchronous, DivConExecution.ForkJoin })
        {
            // Fork-join hides the scheduler from muscles (a blocked worker cannot run what they queue to it).
            var probe = new CallProbe { ExpectedScheduler = execution == DivConExecution.ForkJoin ? TaskScheduler.Default : lease.Scheduler };
            DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(lease.Scheduler, grain: 1000, probe);
            program.Execution = execution;

            long result = await program.RunAsync(new ElementRange(0, 100_000)).WaitAsync(SkeletonPrograms.Timeout);

            Assert.Equal(SkeletonPrograms.ExpectedSum(100_000), result);
            Assert.Equal(0, probe.WrongScheduler);
            Assert.Equal(128, probe.Executes); // 100 000 halved 7 times: 781–782 ≤ 1000
        }
    }

    [Fact]
    public async Task Asynchronous_QueuesOneTaskPerNodeAndOneMergeTaskPerSplit_AllOnTheGivenScheduler()
    {
        // 2^10 leaves of a binary tree: 2^11 − 1 node tasks and 2^10 − 1 merge tasks, each queued exactly once, and
        // the scheduler refuses to inline, so every one of them went through its QueueTask.
        using var scheduler = new DedicatedThreadScheduler(threads: 2);
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(scheduler, grain: 1);

        long result = await program.RunAsync(new ElementRange(0, 1024)).WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal(SkeletonPrograms.ExpectedSum(1024), result);
        Assert.Equal((2 * 1024 - 1) + (1024 - 1), scheduler.AcceptedCount);
    }

    [Fact]
    public async Task InputWithScheduler_OverridesTheSchedulerProperty_ForThatRunOnly()
    {
        using SchedulerLease lease = TestSchedulers.Create("pair2");
        var probe = new CallProbe { ExpectedScheduler = lease.Scheduler };
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(TaskScheduler.Default, grain: 100, probe);

        long result = await program.RunAsync(new ElementRange(0, 10_000), lease.Scheduler).WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal(SkeletonPrograms.ExpectedSum(10_000), result);
        Assert.Equal(0, probe.WrongScheduler);
        Assert.Same(TaskScheduler.Default, program.Scheduler);
    }

    [Fact]
    public async Task SingleMuscle_WithoutSplit_ReturnsTheMuscleResult()
    {
        var probe = new CallProbe();
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(TaskScheduler.Default, grain: 1000, probe);

        long result = await program.RunAsync(new ElementRange(0, 10)).WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal(45, result);
        Assert.Equal(1, probe.Started);
    }

    [Fact]
    public async Task SubresultsReachMerge_InTheOrderSplitReturnedThem()
    {
        // Concatenation is not commutative: any reordering of subresults shows in the output.
        DivConBase<ElementRange, string> program = DivConFactory.Create<ElementRange, string>(
            TaskScheduler.Default,
            shouldSplit: (range, level) => range.Length > 1,
            split: (range, level) => range.Split(3),
            executeMuscle: (range, level) => ((char)('a' + range.Min)).ToString(),
            merge: (parts, level) => string.Concat(parts));

        string result = await program.RunAsync(new ElementRange(0, 26)).WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal("abcdefghijklmnopqrstuvwxyz", result);
    }

    [Fact]
    public async Task OneInstance_RunsSeveralProblemsConcurrently()
    {
        using SchedulerLease lease = TestSchedulers.Create("pair2");
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(lease.Scheduler, grain: 50);

        Task<long>[] runs = new Task<long>[8];
        for (int i = 0; i < runs.Length; i++)
        {
            runs[i] = program.RunAsync(new ElementRange(0, 5_000 + i));
        }

        long[] results = await Task.WhenAll(runs).WaitAsync(SkeletonPrograms.Timeout);
        for (int i = 0; i < runs.Length; i++)
        {
            Assert.Equal(SkeletonPrograms.ExpectedSum(5_000 + i), results[i]);
        }
    }

    [Fact]
    public async Task SchedulerThatRefusesTasks_FaultsTheRun_WithoutHanging()
    {
        // The scheduler accepts 5 tasks and then throws from QueueTask: part of a split's children are never queued.
        // The run must still account for every frame, complete, and carry the scheduler's failure.
        using var scheduler = new DedicatedThreadScheduler(threads: 2, acceptLimit: 5);
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(scheduler, grain: 10);

        Task<long> run = program.RunAsync(new ElementRange(0, 10_000));

        TaskSchedulerException e = await Assert.ThrowsAsync<TaskSchedulerException>(() => run.WaitAsync(SkeletonPrograms.Timeout));
        Assert.IsType<InvalidOperationException>(e.InnerException);
        Assert.True(run.IsFaulted);
    }
}
