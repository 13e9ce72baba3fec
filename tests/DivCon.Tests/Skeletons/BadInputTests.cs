using DivCon.Samples;
using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

public sealed class BadInputTests
{
    [Fact]
    public void NullProblem_ThrowsBeforeAnyTaskIsScheduled()
    {
        using var scheduler = new DedicatedThreadScheduler(1);
        DivConBase<int[], int[]> program = DivConFactory.Create<int[], int[]>(
            scheduler, (p, l) => false, p => [p], p => p, r => r[0]);

        ArgumentNullException e = Assert.Throws<ArgumentNullException>(() => { _ = program.RunAsync(null!); });
        Assert.Equal("problem", e.ParamName);
        Assert.Equal(0, scheduler.AcceptedCount);
    }

    [Fact]
    public void NullSchedulerForOneRun_Throws_UndefinedExecutionThrows()
    {
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(TaskScheduler.Default, 1);
        Assert.Throws<ArgumentNullException>(() => { _ = program.RunAsync(new ElementRange(0, 1), null!); });
        Assert.Throws<ArgumentOutOfRangeException>(() => program.Execution = (DivConExecution)9);
    }

    [Fact]
    public void NullFunctions_AreRejectedByTheFactory()
    {
        Func<int, int, bool> shouldSplit = (p, l) => false;
        Func<int, int, int[]> split = (p, l) => [p];
        Func<int, int, int> execute = (p, l) => p;
        Func<int[], int, int> merge = (r, l) => r[0];
        Assert.Throws<ArgumentNullException>(() => DivConFactory.Create(TaskScheduler.Default, null!, split, execute, merge));
        Assert.Throws<ArgumentNullException>(() => DivConFactory.Create(TaskScheduler.Default, shouldSplit, null!, execute, merge));
        Assert.Throws<ArgumentNullException>(() => DivConFactory.Create(TaskScheduler.Default, shouldSplit, split, null!, merge));
        Assert.Throws<ArgumentNullException>(() => DivConFactory.Create(TaskScheduler.Default, shouldSplit, split, execute, null!));
        Assert.Throws<ArgumentNullException>(() => DivConFactory.Create<int, int>(TaskScheduler.Default, shouldSplit, (Func<int, int[]>)null!, p => p, r => r[0]));
        Assert.Throws<ArgumentNullException>(() => DivConFactory.CreateBinary<int, int>(null!, p => (p, p), p => p, (a, b) => a));
        Assert.Throws<ArgumentNullException>(() => DivConFactory.CreateBinary<int, int>(p => false, null!, p => p, (a, b) => a));
        Assert.Throws<ArgumentNullException>(() => DivConFactory.CreateBinary<int, int>(p => false, p => (p, p), null!, (a, b) => a));
        Assert.Throws<ArgumentNullException>(() => DivConFactory.CreateBinary<int, int>(p => false, p => (p, p), p => p, null!));
        Assert.Throws<ArgumentNullException>(() => DivConFactory.Create<int, int>(
            null!, (p, c) => new ValueTask<int[]>([p]), (p, c) => new(p), (r, c) => new(r[0])));
        Assert.Throws<ArgumentNullException>(() => DivConFactory.Create<int, int>(
            (p, c) => false, (p, c) => new ValueTask<int[]>([p]), (p, c) => new(p), null!));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-5)]
    public void GranularityNotPositive_Throws(long granularity)
    {
        var program = new QuickSort(ProblemSize.Small);
        ArgumentOutOfRangeException e = Assert.Throws<ArgumentOutOfRangeException>(() => program.Granularity = granularity);
        Assert.Contains("value", e.ParamName);
        Assert.Throws<ArgumentOutOfRangeException>(() => program.UseAutomaticGranularity(0));
        Assert.Throws<ArgumentOutOfRangeException>(() => program.UseAutomaticGranularity(2, 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => GranularityRules.Balanced(100, 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => GranularityRules.Strassen(100, -1));
    }

    [Fact]
    public void NegativeSizes_Throw()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new QuickSort(ProblemSize.Small, -1, seed: 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => new SumOfSquares(ProblemSize.Small, 0, seed: 1)); // map-reduce needs ≥ 1 element
        Assert.Throws<ArgumentOutOfRangeException>(() => new MonteCarloPi(ProblemSize.Small, 0, seed: 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => new StrassenMultiply(ProblemSize.Small, -4, seed: 1, leafOrder: 8));
        Assert.Throws<ArgumentOutOfRangeException>(() => new ElementRange(-1, 3));
        Assert.Throws<ArgumentOutOfRangeException>(() => new ElementRange(4, 3));
        Assert.Throws<ArgumentOutOfRangeException>(() => GranularityRules.Balanced(-1, 4));
        Assert.Throws<ArgumentOutOfRangeException>(() => new QuickSort((ProblemSize)42));
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task SplitReturningNoSubproblems_FaultsTheRunWithAClearMessage(bool returnNull)
    {
        DivConBase<int, int> program = DivConFactory.Create<int, int>(
            TaskScheduler.Default,
            shouldSplit: (p, level) => true,
            split: p => returnNull ? null! : [],
            executeMuscle: p => p,
            merge: r => r[0]);

        foreach (DivConExecution execution in new[] { DivConExecution.Asynchronous, DivConExecution.ForkJoin })
        {
            program.Execution = execution;
            InvalidOperationException e = await Assert.ThrowsAsync<InvalidOperationException>(() => program.RunAsync(1).WaitAsync(SkeletonPrograms.Timeout));
            Assert.Contains("at least one subproblem", e.Message);
        }
    }
}
