using System.Diagnostics;
using DivCon.Samples;
using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

/// <summary>Must-show 4: the phase profile shape of §7.3.</summary>
public sealed class PhaseProfilerTests
{
    [Theory]
    [InlineData("montecarlopi", DivConExecution.Asynchronous)]
    [InlineData("montecarlopi", DivConExecution.ForkJoin)]
    [InlineData("sumofsquares", DivConExecution.Asynchronous)]
    [InlineData("mergesort", DivConExecution.Asynchronous)]
    public async Task Branching2With256Muscles_SplitsAtLevels1To8_AndExecutesAtLevel9(string name, DivConExecution execution)
    {
        // §7.3: "Monte Carlo Pi, sum-of-squares, and mergesort keep splitting (with a branching factor of 2) until
        // Level 8, switching to their execute phase at Level 9 (with 256 execute tasks)".
        using SchedulerLease lease = TestSchedulers.Create("pair2");
        var profiler = new PhaseProfiler();
        IDivConSample program = name switch
        {
            "montecarlopi" => new MonteCarloPi(ProblemSize.Small, 1 << 20, seed: 5, branchingFactor: 2),
            "sumofsquares" => new SumOfSquares(ProblemSize.Small, 1 << 20, seed: 5),
            _ => new MergeSort(ProblemSize.Small, 1 << 16, seed: 5),
        };
        program.Profiler = profiler;
        program.Execution = execution;
        program.UseAutomaticGranularity(cores: 64, musclesPerCore: 4); // 256 muscles, as on the thesis's 64 cores

        await program.RunParallelAsync(lease.Scheduler).WaitAsync(SkeletonPrograms.Timeout);

        program.Verify();
        IReadOnlyList<PhaseLevelStatistics> levels = profiler.Snapshot();
        Assert.Equal(9, levels.Count);
        for (int level = 1; level <= 8; level++)
        {
            PhaseLevelStatistics s = levels[level - 1];
            Assert.Equal(level, s.Level);
            Assert.Equal(1L << (level - 1), s.SplitCount);
            Assert.Equal(1L << (level - 1), s.MergeCount);
            Assert.Equal(0, s.ExecuteCount);
        }

        Assert.Equal((9, 0L, 256L, 0L), (levels[8].Level, levels[8].SplitCount, levels[8].ExecuteCount, levels[8].MergeCount));
        Assert.True(levels[8].ExecuteTime > TimeSpan.Zero);
    }

    [Fact]
    public async Task Strassen_With343Muscles_SplitsAtLevels1To3_AndExecutesAtLevel4()
    {
        var profiler = new PhaseProfiler();
        var program = new StrassenMultiply(ProblemSize.Small, order: 128, seed: 1, leafOrder: 8) { Profiler = profiler };
        program.UseAutomaticGranularity(cores: 64, musclesPerCore: 4); // 256 → 7^3

        await program.RunParallelAsync(TaskScheduler.Default).WaitAsync(SkeletonPrograms.Timeout);

        program.Verify();
        IReadOnlyList<PhaseLevelStatistics> levels = profiler.Snapshot();
        Assert.Equal([1L, 7L, 49L, 0L], levels.Select(l => l.SplitCount));
        Assert.Equal([1L, 7L, 49L, 0L], levels.Select(l => l.MergeCount));
        Assert.Equal([0L, 0L, 0L, 343L], levels.Select(l => l.ExecuteCount));
    }

    [Fact]
    public void Profiler_IsOffByDefault()
    {
        Assert.Null(new QuickSort(ProblemSize.Small).Profiler);
        Assert.Null(SkeletonPrograms.RangeSum(TaskScheduler.Default, 1).Profiler);
    }

    [Fact]
    public void Record_AccumulatesCountsAndTimesPerLevel_AndGrowsBeyondItsInitialDepth()
    {
        var profiler = new PhaseProfiler();
        long oneMs = Stopwatch.Frequency / 1000;
        profiler.Record(DivConPhase.Split, 1, oneMs);
        profiler.Record(DivConPhase.Split, 1, oneMs);
        profiler.Record(DivConPhase.Merge, 1, 3 * oneMs);
        profiler.Record(DivConPhase.Execute, 40, oneMs);

        IReadOnlyList<PhaseLevelStatistics> levels = profiler.Snapshot();

        Assert.Equal(40, levels.Count);
        Assert.Equal(2, levels[0].SplitCount);
        Assert.Equal(TimeSpan.FromMilliseconds(2), levels[0].SplitTime);
        Assert.Equal(TimeSpan.FromMilliseconds(3), levels[0].Time(DivConPhase.Merge));
        Assert.Equal(0, levels[20].Count(DivConPhase.Execute));
        Assert.Equal(1, levels[39].ExecuteCount);
        Assert.Equal(1, profiler.TotalCount(DivConPhase.Execute));

        profiler.Reset();
        Assert.Empty(profiler.Snapshot());
    }

    [Fact]
    public void Record_FromManyThreads_LosesNoCount()
    {
        var profiler = new PhaseProfiler();
        Parallel.For(0, 100_000, new ParallelOptions { MaxDegreeOfParallelism = 4 }, i =>
            profiler.Record((DivConPhase)(i % 3), 1 + (i % 50), 1));

        long total = profiler.TotalCount(DivConPhase.Split) + profiler.TotalCount(DivConPhase.Execute) + profiler.TotalCount(DivConPhase.Merge);
        Assert.Equal(100_000, total);
        Assert.Equal(50, profiler.Snapshot().Count);
    }

    [Fact]
    public void Record_RejectsBadArguments()
    {
        var profiler = new PhaseProfiler();
        Assert.Throws<ArgumentOutOfRangeException>(() => profiler.Record(DivConPhase.Split, 0, 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => profiler.Record(DivConPhase.Split, 1, -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => profiler.Record((DivConPhase)7, 1, 1));
    }
}
