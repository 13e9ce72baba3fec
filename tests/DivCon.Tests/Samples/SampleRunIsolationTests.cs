using DivCon.Samples;
using DivCon.Samples.Sequences;
using DivCon.Samples.WorkInflation;
using DivCon.Skeletons;
using DivCon.Skeletons.Sequences;
using DivCon.Tests.Skeletons;

namespace DivCon.Tests.Samples;

/// <summary>
/// Issue 15, defects 5 and 6: concurrent runs of one sample instance either give correct results (the programs whose
/// runs share nothing but their input) or are refused (the programs whose runs share an output); a verified output is
/// reset, so a later run that wrote nothing cannot pass; quicksort's pivot keeps the recursion shallow on presorted,
/// reverse-sorted and all-equal input.
/// </summary>
public sealed class SampleRunIsolationTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    public static TheoryData<string> Sorts() => [QuickSort.ProgramName, MergeSort.ProgramName];

    [Theory]
    [MemberData(nameof(Sorts))]
    public async Task ASort_RefusesASecondConcurrentRun_AndTheFirstRunSortsCorrectly(string name)
    {
        // Before, two concurrent quicksorts of one instance gave a wrong array 10 times out of 10.
        using SchedulerLease lease = TestSchedulers.Create("ws2");
        var program = (SortProgram)SampleCatalog.Create(name, ProblemSize.Small, settings: new SampleSettings { Cores = 2 });
        program.Initialize();

        Task first = program.RunParallelAsync(lease.Scheduler);
        Task second = program.RunParallelAsync(lease.Scheduler);
        Task<ElementRange> direct = Task.Run(() => program.RunAsync(new ElementRange(0, program.Length)));

        // The first run may finish before the second starts (then both succeed); whichever overlaps is refused.
        Task[] all = [first, second, direct];
        await Task.WhenAll(all.Select(t => t.ContinueWith(_ => { }, TaskScheduler.Default))).WaitAsync(Timeout);
        Assert.All(all.Where(t => t.IsFaulted), t =>
            Assert.Contains("one", Assert.IsType<InvalidOperationException>(t.Exception!.InnerException).Message, StringComparison.Ordinal));
        Assert.True(first.IsCompletedSuccessfully);
        program.Verify();
    }

    [Fact]
    public async Task ASort_ConcurrentRunsOfOneInstance_AreRefusedWhileOneIsInProgress()
    {
        using SchedulerLease lease = TestSchedulers.Create("ws1");
        var program = new QuickSort(ProblemSize.Small);
        program.Initialize();
        program.Granularity = 64; // thousands of muscles: the first run is still in progress below

        Task first = program.RunParallelAsync(lease.Scheduler);
        bool refused = false;
        if (!first.IsCompleted)
        {
            InvalidOperationException e = await Assert.ThrowsAsync<InvalidOperationException>(() => program.RunParallelAsync(lease.Scheduler));
            Assert.Contains("in progress", e.Message, StringComparison.Ordinal);
            refused = true;
        }

        await first.WaitAsync(Timeout);
        program.Verify();
        await program.RunParallelAsync(lease.Scheduler).WaitAsync(Timeout); // accepted again once the first is done
        program.Verify();
        Assert.True(refused || first.IsCompletedSuccessfully);
    }

    public static TheoryData<string> ProgramsWithoutSharedOutput() => [SumOfSquares.ProgramName, MonteCarloPi.ProgramName, StrassenMultiply.ProgramName];

    [Theory]
    [MemberData(nameof(ProgramsWithoutSharedOutput))]
    public async Task ConcurrentRunsOfOneInstance_GiveCorrectResults(string name)
    {
        using SchedulerLease lease = TestSchedulers.Create("ws2");
        IDivConSample program = SampleCatalog.Create(name, ProblemSize.Small, settings: new SampleSettings { Cores = 2 });
        program.Initialize();

        await Task.WhenAll(Enumerable.Range(0, 4).Select(_ => program.RunParallelAsync(lease.Scheduler))).WaitAsync(Timeout);

        program.Verify();
    }

    [Fact]
    public async Task WorkInflationAndTransform_RefuseASecondConcurrentRun()
    {
        using SchedulerLease lease = TestSchedulers.Create("ws1");
        var inflation = new WorkInflationBenchmark(ProblemSize.Small, new WorkInflationParameters(1 << 16, 8, 1, 4));
        var transform = new SequenceTransform(WindowMode.Sliding, ProblemSize.Small, new SequenceTransformParameters(1 << 16, 100, 4), grain: 4, windowSize: 64);
        foreach (ISampleProgram program in new ISampleProgram[] { inflation, transform })
        {
            Task first = program.RunParallelAsync(lease.Scheduler);
            Task second = program.RunParallelAsync(lease.Scheduler);
            await Task.WhenAll(first, second).ContinueWith(_ => { }, TaskScheduler.Default).WaitAsync(Timeout);
            Assert.True(first.IsCompletedSuccessfully);
            Assert.True(second.IsCompletedSuccessfully || second.Exception!.InnerException is InvalidOperationException, $"{program.Name}: {second.Exception}");
            program.Verify();
        }
    }

    public static TheoryData<string> Programs() => [.. SampleCatalog.Names];

    [Theory]
    [MemberData(nameof(Programs))]
    public async Task Verify_ResetsTheResult_SoARunMustProduceItAgain(string name)
    {
        // Before, outputs were never reset: a second run that wrote nothing still passed Verify.
        using SchedulerLease lease = TestSchedulers.Create("ws2");
        IDivConSample program = SampleCatalog.Create(name, ProblemSize.Small, settings: new SampleSettings { Cores = 2 });
        await program.RunParallelAsync(lease.Scheduler).WaitAsync(Timeout);
        program.Verify();

        // Nothing verifies without a new successful run.
        InvalidOperationException e = Assert.Throws<InvalidOperationException>(program.Verify);
        Assert.Contains("RunParallelAsync", e.Message, StringComparison.Ordinal);
        if (program is SortBase<int> sort)
        {
            // The output itself was overwritten with a value outside the input: a run must write every element.
            int[] sorted = (int[])sort.SourceElements.Clone();
            Array.Sort(sorted);
            Assert.All(sort.SortedElements, v => Assert.Equal(int.MinValue, v));
            Assert.True(sorted[0] > int.MinValue);
        }

        if (program is StrassenMultiply strassen)
        {
            Assert.Null(strassen.Result);
        }

        await program.RunParallelAsync(lease.Scheduler).WaitAsync(Timeout);
        program.Verify();
    }

    [Fact]
    public async Task WorkInflationAndTransform_VerifyPoisonsTheirOutputs()
    {
        var inflation = new WorkInflationBenchmark(ProblemSize.Small, new WorkInflationParameters(1 << 12, 8, 1, 2));
        await inflation.RunParallelAsync(TaskScheduler.Default).WaitAsync(Timeout);
        inflation.Verify();
        Assert.Throws<InvalidOperationException>(inflation.Verify);

        var transform = new SequenceTransform(WindowMode.None, ProblemSize.Small, new SequenceTransformParameters(1 << 12, 10, 3), grain: 4);
        await transform.RunParallelAsync(TaskScheduler.Default).WaitAsync(Timeout);
        transform.Verify();
        Assert.All(transform.LastOutput, v => Assert.True(double.IsNaN(v)));
        Assert.Throws<InvalidOperationException>(transform.Verify);
    }

    public static TheoryData<string, bool, string> NestedOnAndOff()
    {
        var data = new TheoryData<string, bool, string>();
        foreach (string name in new[] { QuickSort.ProgramName, MergeSort.ProgramName, StrassenMultiply.ProgramName })
        {
            foreach (bool nested in new[] { false, true })
            {
                foreach (string scheduler in new[] { "ws2", "mps2", "pair2" })
                {
                    data.Add(name, nested, scheduler);
                }
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(NestedOnAndOff))]
    public async Task ParallelSplitAndMerge_OnAndOff_BothEqualTheBaseline(string name, bool nested, string schedulerName)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        IDivConSample program = SampleCatalog.Create(name, ProblemSize.Small, settings: new SampleSettings { Cores = 2 });
        switch (program)
        {
            case QuickSort quickSort:
                quickSort.ParallelSplitAndMerge = nested;
                break;
            case MergeSort mergeSort:
                mergeSort.ParallelSplitAndMerge = nested;
                break;
            case StrassenMultiply strassen:
                strassen.ParallelSplitAndMerge = nested;
                break;
        }

        foreach (DivConExecution mode in Enum.GetValues<DivConExecution>())
        {
            program.Execution = mode;
            await program.RunParallelAsync(lease.Scheduler).WaitAsync(Timeout);
            program.Verify();
        }
    }

    [Theory]
    [InlineData("presorted")]
    [InlineData("all equal")]
    [InlineData("two values")]
    [InlineData("random")]
    public async Task QuickSort_ParallelPartition_SortsEdgeCases(string shape)
    {
        const int n = 50_000;
        var random = new Random(5);
        int[] input = shape switch
        {
            "presorted" => Enumerable.Range(0, n).ToArray(),
            "all equal" => Enumerable.Repeat(3, n).ToArray(),
            "two values" => Enumerable.Range(0, n).Select(i => i % 2).ToArray(),
            _ => Enumerable.Range(0, n).Select(_ => random.Next(int.MinValue, int.MaxValue)).ToArray(),
        };
        var program = new QuickSort(input) { ParallelSplitAndMerge = true, Granularity = 1000 };
        using SchedulerLease lease = TestSchedulers.Create("ws2");

        await program.RunParallelAsync(lease.Scheduler).WaitAsync(Timeout);

        int[] expected = (int[])input.Clone();
        Array.Sort(expected);
        Assert.Equal(expected, program.SortedElements);
    }

    public static TheoryData<string> Shapes() => ["presorted", "reverse", "all equal", "two values", "organ pipe"];

    [Theory]
    [MemberData(nameof(Shapes))]
    public async Task QuickSort_StaysShallow_OnAdversarialInputs(string shape)
    {
        // Before, the median of the first 100 elements split presorted 2^18 elements 4,589 levels deep.
        const int n = 1 << 18;
        int[] input = shape switch
        {
            "presorted" => Enumerable.Range(0, n).ToArray(),
            "reverse" => Enumerable.Range(0, n).Reverse().ToArray(),
            "all equal" => Enumerable.Repeat(42, n).ToArray(),
            "two values" => Enumerable.Range(0, n).Select(i => i % 2).ToArray(),
            _ => Enumerable.Range(0, n).Select(i => Math.Min(i, n - i)).ToArray(),
        };
        var profiler = new PhaseProfiler();
        var program = new QuickSort(input) { Profiler = profiler, Granularity = n / 1024 };
        using SchedulerLease lease = TestSchedulers.Create("ws2");

        await program.RunParallelAsync(lease.Scheduler).WaitAsync(Timeout);

        int[] expected = (int[])input.Clone();
        Array.Sort(expected);
        Assert.Equal(expected, program.SortedElements);
        // log2(1024) = 10 levels of balanced halving, 11 with the leaves; allow a few uneven splits.
        int depth = profiler.Snapshot().Count;
        Assert.True(depth <= 16, $"{shape}: {depth} levels");
    }

    [Fact]
    public void QuickSort_SpreadMedian_IsTheMedianOfEvenlySpacedSamples()
    {
        int[] presorted = Enumerable.Range(0, 1000).ToArray();
        Assert.Equal(499, QuickSort.SpreadMedian(presorted, 0, 1000)); // samples ⌊k · 999 / 100⌋, k = 0 … 100: the 51st is ⌊499.5⌋
        Assert.Equal(7, QuickSort.SpreadMedian([7], 0, 1));
        Assert.Equal(2, QuickSort.SpreadMedian([3, 1, 2], 0, 3));
        Assert.Throws<ArgumentOutOfRangeException>(() => QuickSort.SpreadMedian(presorted, 5, 5));
    }

    [Fact]
    public void MergeSort_LeftCount_MatchesAMergeThatTakesTiesFromTheLeft()
    {
        var random = new Random(3);
        for (int trial = 0; trial < 200; trial++)
        {
            int[] left = Enumerable.Range(0, random.Next(0, 40)).Select(_ => random.Next(0, 10)).Order().ToArray();
            int[] right = Enumerable.Range(0, random.Next(0, 40)).Select(_ => random.Next(0, 10)).Order().ToArray();
            // The sequential merge, recording how many left elements are among the first t outputs.
            var leftTaken = new List<int> { 0 };
            int i = 0, j = 0;
            while (i < left.Length || j < right.Length)
            {
                if (j == right.Length || (i < left.Length && left[i] <= right[j]))
                {
                    i++;
                }
                else
                {
                    j++;
                }

                leftTaken.Add(i);
            }

            for (int t = 0; t <= left.Length + right.Length; t++)
            {
                Assert.Equal(leftTaken[t], MergeSort.LeftCount(left, right, t));
            }
        }
    }
}
