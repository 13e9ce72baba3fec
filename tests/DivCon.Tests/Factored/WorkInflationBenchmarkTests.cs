using DivCon.Samples;
using DivCon.Samples.WorkInflation;
using DivCon.Scheduling;

namespace DivCon.Tests.Factored;

public sealed class WorkInflationBenchmarkTests
{
    [Theory]
    [InlineData(1, 1)]
    [InlineData(64, 1)]
    [InlineData(64, 32)]
    [InlineData(4096, 32)]
    [InlineData(96, 3)]
    public void CellOf_VisitsEveryCellExactlyOncePerPass_WhenGDividesM(int m, int g)
    {
        var seen = new bool[m];
        for (int i = 0; i < m; i++)
        {
            int cell = WorkInflationBenchmark.CellOf(i, g, m);
            Assert.False(seen[cell], $"cell {cell} visited twice");
            seen[cell] = true;
        }
    }

    [Fact]
    public void CellOf_FollowsTheSeedsFormula()
    {
        // (i·G + ⌊i·G/M⌋) mod M with M = 64, G = 32: i = 0 → 0, 1 → 32, 2 → (64 + 1) mod 64 = 1, 3 → (96 + 1) mod 64 = 33.
        Assert.Equal([0, 32, 1, 33], Enumerable.Range(0, 4).Select(i => WorkInflationBenchmark.CellOf(i, 32, 64)));
    }

    [Theory]
    [InlineData(1 << 12, 1, 32, 3, 1)]
    [InlineData(1 << 12, 4, 1, 2, 2)]
    [InlineData(1000, 3, 8, 1, 2)]
    public async Task ParallelRun_EqualsTheSequentialBaseline(int m, int l, int g, int r, int workers)
    {
        var program = new WorkInflationBenchmark(ProblemSize.Small, new WorkInflationParameters(m, l, g, r), seed: 5);
        program.Granularity = 100;
        using var scheduler = new WorkStealingTaskScheduler(workers);

        await program.RunParallelAsync(scheduler).WaitAsync(TimeSpan.FromMinutes(1));
        program.Verify();
        // Twice: each run starts again from the input.
        await program.RunParallelAsync(scheduler).WaitAsync(TimeSpan.FromMinutes(1));
        program.Verify();
    }

    [Fact]
    public async Task Verify_CatchesADifferentResult()
    {
        var program = new WorkInflationBenchmark(ProblemSize.Small, new WorkInflationParameters(256, 1, 32, 2), seed: 5);
        using var scheduler = new WorkStealingTaskScheduler(1);
        program.RunSequential();
        Assert.Throws<InvalidOperationException>(program.Verify); // no parallel run yet

        var other = new WorkInflationBenchmark(ProblemSize.Small, new WorkInflationParameters(256, 1, 32, 3), seed: 5);
        await other.RunParallelAsync(scheduler).WaitAsync(TimeSpan.FromMinutes(1));
        await program.RunParallelAsync(scheduler).WaitAsync(TimeSpan.FromMinutes(1));
        program.Verify();
        Assert.NotEqual(other.Result, program.Result); // R changes the answer, so the check has something to compare
    }

    [Fact]
    public void Parameters_AreValidated_EveryProblemListed()
    {
        var e = Assert.Throws<ArgumentException>(() => new WorkInflationBenchmark(ProblemSize.Small, new WorkInflationParameters(100, 0, 32, 0)));

        Assert.Contains("L (load)", e.Message);
        Assert.Contains("multiple of G", e.Message);
        Assert.Contains("R (repeats)", e.Message);
        Assert.Single(new WorkInflationParameters(0, 1, 1, 1).Validate());
    }

    [Fact]
    public void Catalogue_CreatesIt_ButKeepsItOutOfTheThesisWorkloads()
    {
        IDivConSample program = SampleCatalog.Create("WorkInflation", ProblemSize.Small);

        var benchmark = Assert.IsType<WorkInflationBenchmark>(program);
        Assert.Equal(WorkInflationParameters.For(ProblemSize.Small), benchmark.Parameters);
        Assert.DoesNotContain(WorkInflationBenchmark.ProgramName, SampleCatalog.Names);
        Assert.DoesNotContain(WorkInflationBenchmark.ProgramName, DivCon.Harness.Programs.ProgramCatalog.DefaultCyclicWorkload);
        Assert.False(program.IsInitialized); // Create allocates nothing
        program.UseSequentialElision();
        Assert.True(program.IsSequentialElision);
    }
}
