using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

/// <summary>
/// Issue 15, defect 3: a one-child chain 200,000 levels deep, clean, faulted at its leaf and canceled at its leaf. Before,
/// the asynchronous mode's stopped path reported "no result" and "children done" by mutual recursion, one pair of calls
/// per level, and a faulted chain of 100,000 levels killed the process with a stack overflow. Fork-join holds a stack
/// frame per level on one thread by design: it must fault, not overflow.
/// </summary>
public sealed class DeepChainTests
{
    private const int Depth = 200_000;

    public static TheoryData<string> Schedulers() => ["ws1", "ws2", "default"];

    [Theory]
    [MemberData(nameof(Schedulers))]
    public async Task Asynchronous_AFaultAtTheLeaf_FaultsTheRun(string schedulerName)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        var fault = new InvalidDataException("leaf");
        DivConBase<int, int> chain = Chain(lease.Scheduler, leaf: () => throw fault);

        Task<int> run = chain.RunAsync(Depth, CancellationToken.None);

        Assert.Same(fault, await Assert.ThrowsAsync<InvalidDataException>(() => run.WaitAsync(SkeletonPrograms.Timeout)));
    }

    [Theory]
    [MemberData(nameof(Schedulers))]
    public async Task Asynchronous_ACancellationAtTheLeaf_CancelsTheRun(string schedulerName)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        using var cts = new CancellationTokenSource();
        DivConBase<int, int> chain = Chain(lease.Scheduler, leaf: () =>
        {
            cts.Cancel();
            return 0;
        });

        Task<int> run = chain.RunAsync(Depth, cts.Token);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run.WaitAsync(SkeletonPrograms.Timeout));
        Assert.True(run.IsCanceled);
    }

    [Fact]
    public async Task Asynchronous_ACleanChain_MergesEveryLevel()
    {
        using SchedulerLease lease = TestSchedulers.Create("ws2");
        DivConBase<int, int> chain = Chain(lease.Scheduler, leaf: () => 0);

        int result = await chain.RunAsync(Depth, CancellationToken.None).WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal(Depth, result); // each merge adds one
    }

    [Theory]
    [InlineData("ws1", true)]
    [InlineData("ws1", false)]
    [InlineData("default", true)]
    public async Task ForkJoin_AChainDeeperThanTheStack_FaultsInsteadOfOverflowing(string schedulerName, bool faultAtLeaf)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        using var cts = new CancellationTokenSource();
        DivConBase<int, int> chain = Chain(lease.Scheduler, leaf: () =>
        {
            if (faultAtLeaf)
            {
                throw new InvalidDataException("leaf");
            }

            cts.Cancel();
            return 0;
        });
        chain.Execution = DivConExecution.ForkJoin;

        Task<int> run = chain.RunAsync(Depth, cts.Token);

        // Each level a thread waits at holds stack frames; 200,000 of them do not fit a thread's stack.
        await Assert.ThrowsAsync<InsufficientExecutionStackException>(() => run.WaitAsync(SkeletonPrograms.Timeout));
        Assert.Contains("DivConExecution.Asynchronous", run.Exception!.InnerExceptions[0].Message, StringComparison.Ordinal);
    }

    // Problem d (levels left); split(d) = [d − 1]; the leaf at d = 0; merge adds one to its only subresult.
    private static DivConBase<int, int> Chain(TaskScheduler scheduler, Func<int> leaf) =>
        DivConFactory.Create<int, int>(
            scheduler,
            shouldSplit: (d, level) => d > 0,
            split: (d, level) => [d - 1],
            executeMuscle: (d, level) => leaf(),
            merge: (results, level) => results[0] + 1);
}
