using DivCon.Samples;
using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

/// <summary>Must-show 3 (automatic granularity, counted by the profiling hooks) and 6 (sequential elision).</summary>
public sealed class GranularityTests
{
    [Theory]
    [InlineData(1000, 4, 250)]
    [InlineData(1001, 4, 251)]
    [InlineData(1 << 20, 8, 1 << 17)]
    [InlineData(5, 8, 1)]
    [InlineData(0, 8, 1)]
    public void BalancedRule_IsTheCeilingOfSizeOverTarget(long size, long target, long expected) =>
        Assert.Equal(expected, GranularityRules.Balanced(size, target));

    [Theory]
    [InlineData(1536L * 1536, 1, 1536L * 1536)]          // 7^0 ≥ 1
    [InlineData(1536L * 1536, 7, 1536L * 1536 / 4)]      // 7^1
    [InlineData(1536L * 1536, 8, 1536L * 1536 / 16)]     // ⌈log7 8⌉ = 2
    [InlineData(1536L * 1536, 49, 1536L * 1536 / 16)]
    [InlineData(1536L * 1536, 64 * 4, 1536L * 1536 / 64)] // 256 muscles → 343: ratio 1/64
    [InlineData(16, 343, 1)]
    public void StrassenRule_DividesByFourPerLevelOfBranchingSeven(long size, long target, long expected) =>
        Assert.Equal(expected, GranularityRules.Strassen(size, target));

    [Theory]
    [InlineData(1, 2, 0)]
    [InlineData(2, 2, 1)]
    [InlineData(8, 2, 3)]
    [InlineData(9, 2, 4)]
    [InlineData(49, 7, 2)]
    [InlineData(50, 7, 3)]
    [InlineData(long.MaxValue, 2, 63)]
    public void CeilingLog_IsExact(long value, int logBase, int expected) =>
        Assert.Equal(expected, GranularityRules.CeilingLog(value, logBase));

    public static TheoryData<int, int, int> BalancedCases() => new()
    {
        // cores, muscles per core, expected execute muscles (binary split of 2^20: the next power of 2 ≥ target)
        { 1, 4, 4 },
        { 2, 4, 8 },
        { 4, 4, 16 },
        { 3, 4, 16 },
        { 2, 16, 32 },
        { 64, 4, 256 },
    };

    [Theory]
    [MemberData(nameof(BalancedCases))]
    public async Task SumOfSquares_AutomaticGranularity_RunsExactlyTheExpectedMuscles(int cores, int perCore, int expected)
    {
        var profiler = new PhaseProfiler();
        var program = new SumOfSquares(ProblemSize.Small, 1 << 20, seed: 1) { Profiler = profiler };
        program.UseAutomaticGranularity(cores, perCore);

        await program.RunParallelAsync(TaskScheduler.Default).WaitAsync(SkeletonPrograms.Timeout);

        program.Verify();
        Assert.Equal(expected, profiler.TotalCount(DivConPhase.Execute));
    }

    [Theory]
    [InlineData(2, 64)]
    [InlineData(4, 64)]
    [InlineData(3, 64)]
    public async Task MonteCarloPi_WithBranchingFour_RunsThePowerOfFourAtOrAboveTheTarget(int cores, int expected)
    {
        var profiler = new PhaseProfiler();
        var program = new MonteCarloPi(ProblemSize.Small, 1 << 16, seed: 1, branchingFactor: 4) { Profiler = profiler };
        program.UseAutomaticGranularity(cores, 16);

        await program.RunParallelAsync(TaskScheduler.Default).WaitAsync(SkeletonPrograms.Timeout);

        program.Verify();
        Assert.Equal(expected, profiler.TotalCount(DivConPhase.Execute));
    }

    [Theory]
    [InlineData(1, 4, 7)]    // 4 → 7^1
    [InlineData(2, 4, 49)]   // 8 → 7^2
    [InlineData(12, 4, 49)]  // 48 → 7^2
    [InlineData(13, 4, 343)] // 52 → 7^3
    public async Task Strassen_AutomaticGranularity_RunsSevenToTheCeilingLog(int cores, int perCore, int expected)
    {
        var profiler = new PhaseProfiler();
        var program = new StrassenMultiply(ProblemSize.Small, order: 128, seed: 1, leafOrder: 8) { Profiler = profiler };
        program.UseAutomaticGranularity(cores, perCore);

        await program.RunParallelAsync(TaskScheduler.Default).WaitAsync(SkeletonPrograms.Timeout);

        program.Verify();
        Assert.Equal(expected, profiler.TotalCount(DivConPhase.Execute));
    }

    [Fact]
    public async Task Strassen_StopsSplittingAtTheLeafOrder_EvenBelowTheGranularity()
    {
        var profiler = new PhaseProfiler();
        var program = new StrassenMultiply(ProblemSize.Small, order: 128, seed: 1, leafOrder: 32) { Profiler = profiler };
        program.Granularity = 1;

        await program.RunParallelAsync(TaskScheduler.Default).WaitAsync(SkeletonPrograms.Timeout);

        program.Verify();
        Assert.Equal(49, profiler.TotalCount(DivConPhase.Execute)); // 128 → 64 → 32
    }

    [Theory]
    [InlineData(2)]
    [InlineData(4)]
    public async Task QuickSort_AutomaticGranularity_IsWithinAFactorOfTwoOfTheTarget(int cores)
    {
        // Unbalanced splits (§4.5.2): a range just above the granularity splits once more, a lopsided split can stop
        // early; with the median-of-100 pivot both stay within a factor of 2 of the target on random data.
        int target = cores * GranularDivCon<int, int>.DefaultMusclesPerCore;
        var profiler = new PhaseProfiler();
        var program = new QuickSort(ProblemSize.Small, 1 << 18, seed: 3) { Profiler = profiler };
        program.UseAutomaticGranularity(cores);

        await program.RunParallelAsync(TaskScheduler.Default).WaitAsync(SkeletonPrograms.Timeout);

        program.Verify();
        long muscles = profiler.TotalCount(DivConPhase.Execute);
        Assert.InRange(muscles, target / 2, target * 2);
    }

    [Fact]
    public void Granularity_DefaultsToFourMusclesPerCoreOfThisMachine()
    {
        var program = new SumOfSquares(ProblemSize.Small, 1 << 20, seed: 1);
        Assert.Equal(GranularityRules.Balanced(1 << 20, Environment.ProcessorCount * 4L), program.Granularity);
    }

    [Theory]
    [InlineData("sumofsquares")]
    [InlineData("montecarlopi")]
    [InlineData("strassen")]
    [InlineData("quicksort")]
    [InlineData("mergesort")]
    public async Task SequentialElision_RunsExactlyOneMuscle_AndNoSplitOrMerge(string name)
    {
        var profiler = new PhaseProfiler();
        IDivConSample program = SampleCatalog.Create(name, ProblemSize.Small, settings: new SampleSettings { SequentialElision = true, Profiler = profiler });
        Assert.True(program.IsSequentialElision);
        Assert.Equal(program.ProblemSize, program.Granularity);

        await program.RunParallelAsync(TaskScheduler.Default).WaitAsync(SkeletonPrograms.Timeout);

        program.Verify();
        PhaseLevelStatistics level = Assert.Single(profiler.Snapshot());
        Assert.Equal((1, 0L, 1L, 0L), (level.Level, level.SplitCount, level.ExecuteCount, level.MergeCount));
    }

    [Fact]
    public void ExplicitGranularity_FromSettings_IsApplied()
    {
        IDivConSample program = SampleCatalog.Create("quicksort", ProblemSize.Small, settings: new SampleSettings { Granularity = 1234 });
        Assert.Equal(1234, program.Granularity);
    }
}
