using DivCon.Samples;
using DivCon.Skeletons;
using DivCon.Tests.Skeletons;

namespace DivCon.Tests.Samples;

/// <summary>Must-show 1: every program's parallel result equals its sequential baseline on every test scheduler.</summary>
public sealed class SampleProgramTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    public static TheoryData<string, string> ProgramsTimesSchedulers()
    {
        var data = new TheoryData<string, string>();
        foreach (string program in SampleCatalog.Names)
        {
            foreach (string scheduler in TestSchedulers.All)
            {
                data.Add(program, scheduler);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(ProgramsTimesSchedulers))]
    public async Task ParallelResult_EqualsTheBaseline(string name, string schedulerName)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        IDivConSample program = SampleCatalog.Create(name, ProblemSize.Small, settings: new SampleSettings { Cores = 2 });

        await program.RunParallelAsync(lease.Scheduler).WaitAsync(Timeout);
        program.RunSequential();

        program.Verify();
    }

    public static TheoryData<string> Programs() => [.. SampleCatalog.Names];

    [Theory]
    [MemberData(nameof(Programs))]
    public async Task ForkJoinResult_EqualsTheBaseline_AndRepeatedRunsReuseTheData(string name)
    {
        using SchedulerLease lease = TestSchedulers.Create("pair2");
        IDivConSample program = SampleCatalog.Create(name, ProblemSize.Small, settings: new SampleSettings { Execution = DivConExecution.ForkJoin });

        await program.RunParallelAsync(lease.Scheduler).WaitAsync(Timeout);
        program.Verify();
        program.Execution = DivConExecution.Asynchronous;
        await program.RunParallelAsync(lease.Scheduler).WaitAsync(Timeout);
        program.Verify();
    }

    [Theory]
    [MemberData(nameof(Programs))]
    public void Verify_BeforeAnyParallelRun_Throws(string name)
    {
        IDivConSample program = SampleCatalog.Create(name, ProblemSize.Small);
        InvalidOperationException e = Assert.Throws<InvalidOperationException>(program.Verify);
        Assert.Contains("RunParallelAsync", e.Message);
    }

    [Fact]
    public async Task Verify_DetectsAWrongSortedElement()
    {
        foreach (string name in new[] { "quicksort", "mergesort" })
        {
            var program = (SortBase<int>)SampleCatalog.Create(name, ProblemSize.Small);
            await ((ISampleProgram)program).RunParallelAsync(TaskScheduler.Default).WaitAsync(Timeout);
            ((ISampleProgram)program).Verify();
            await ((ISampleProgram)program).RunParallelAsync(TaskScheduler.Default).WaitAsync(Timeout);

            program.SortedElements[1000]++;

            InvalidOperationException e = Assert.Throws<InvalidOperationException>(((ISampleProgram)program).Verify);
            Assert.Contains("index 1000", e.Message);
        }
    }

    [Fact]
    public async Task Verify_DetectsAWrongProduct()
    {
        var program = new StrassenMultiply(ProblemSize.Small);
        await program.RunParallelAsync(TaskScheduler.Default).WaitAsync(Timeout);
        program.Verify();
        await program.RunParallelAsync(TaskScheduler.Default).WaitAsync(Timeout);

        program.Result!.Data[17] += 1;

        Assert.Throws<InvalidOperationException>(program.Verify);
    }

    [Fact]
    public async Task Runs_DoNotModifyTheSource_AndSameSeedGivesSameData()
    {
        var first = new QuickSort(ProblemSize.Small, seed: 9);
        var second = new QuickSort(ProblemSize.Small, seed: 9);
        var other = new QuickSort(ProblemSize.Small, seed: 10);
        first.Initialize();
        second.Initialize();
        other.Initialize();
        int[] before = (int[])first.SourceElements.Clone();

        await first.RunParallelAsync(TaskScheduler.Default).WaitAsync(Timeout);
        await first.RunParallelAsync(TaskScheduler.Default).WaitAsync(Timeout);

        first.Verify();
        Assert.Equal(before, first.SourceElements);
        Assert.Equal(second.SourceElements, first.SourceElements);
        Assert.NotEqual(other.SourceElements, first.SourceElements);
    }

    public static TheoryData<string, int[]> SortEdgeCases()
    {
        var data = new TheoryData<string, int[]>();
        var random = new Random(11);
        int[][] inputs =
        [
            [],
            [5],
            [2, 1],
            Enumerable.Repeat(7, 5000).ToArray(),
            Enumerable.Range(0, 5000).ToArray(),
            Enumerable.Range(0, 5000).Reverse().ToArray(),
            Enumerable.Range(0, 5000).Select(i => i % 3).ToArray(),
            Enumerable.Range(0, 5000).Select(i => i < 4990 ? 0 : random.Next()).ToArray(),
            Enumerable.Range(0, 5000).Select(_ => random.Next(int.MinValue, int.MaxValue)).Append(int.MaxValue).Append(int.MinValue).ToArray(),
        ];
        foreach (string name in new[] { "quicksort", "mergesort" })
        {
            foreach (int[] input in inputs)
            {
                data.Add(name, input);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(SortEdgeCases))]
    public async Task Sorts_HandleDuplicatesPresortedAndTinyInputs_EvenAtGranularityOne(string name, int[] input)
    {
        using SchedulerLease lease = TestSchedulers.Create("pair2");
        IDivConSample program = name == "quicksort" ? new QuickSort(input) : new MergeSort(input);
        program.Granularity = 1; // split as far as possible: degenerate partitions and uneven leaf depths

        await program.RunParallelAsync(lease.Scheduler).WaitAsync(Timeout);

        int[] expected = (int[])input.Clone();
        Array.Sort(expected);
        Assert.Equal(expected, ((SortBase<int>)program).SortedElements);
        program.Verify();
    }

    [Theory]
    [InlineData(128, 16)]
    [InlineData(100, 8)]  // 100 → 50 → 25: odd orders stop splitting
    [InlineData(96, 64)]
    public void Strassen_EqualsTheStandardProduct(int order, int leafOrder)
    {
        SquareMatrix a = SquareMatrix.Random(order, 1);
        SquareMatrix b = SquareMatrix.Random(order, 2);

        SquareMatrix strassen = StrassenMultiply.MultiplySequential(a, b, leafOrder);

        SquareMatrix standard = new(order);
        for (int i = 0; i < order; i++)
        {
            for (int j = 0; j < order; j++)
            {
                double sum = 0;
                for (int k = 0; k < order; k++)
                {
                    sum += a[i, k] * b[k, j];
                }

                standard[i, j] = sum;
            }
        }

        Assert.True(strassen.ContentEquals(standard));
        Assert.True(SquareMatrix.MultiplyStandard(a, b).ContentEquals(standard));
    }

    [Theory]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(7)]
    public async Task MonteCarloPi_CountDoesNotDependOnTheSplit_AndEstimatesPi(int branching)
    {
        var program = new MonteCarloPi(ProblemSize.Small, 1 << 20, seed: 4, branchingFactor: branching);
        program.UseAutomaticGranularity(8);

        await program.RunParallelAsync(TaskScheduler.Default).WaitAsync(Timeout);

        program.Verify(); // exact count vs the one-loop baseline, estimate within 6 σ of π
        Assert.InRange(program.Estimate, Math.PI - program.Tolerance, Math.PI + program.Tolerance);
    }

    [Fact]
    public async Task Cancellation_EndsASampleRunCanceled()
    {
        // Medium Monte Carlo (no data to make) runs for about a second; 2048 short muscles stop soon after the cancel.
        IDivConSample program = SampleCatalog.Create("montecarlopi", ProblemSize.Medium, settings: new SampleSettings { Granularity = 1 << 16 });
        using var cts = new CancellationTokenSource();
        using SchedulerLease lease = TestSchedulers.Create("pair2");

        Task run = program.RunParallelAsync(lease.Scheduler, cts.Token);
        // Canceled by this thread, not by a timer: a CancelAfter callback waits for a thread-pool thread, which a
        // loaded test run can delay past the whole run (seen once: the run ended normally after 1 s).
        Thread.Sleep(20);
        cts.Cancel();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run.WaitAsync(Timeout));
        Assert.Throws<InvalidOperationException>(program.Verify);
    }
}
