using DivCon.Samples;
using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

/// <summary>Must-show 2: deep recursion on one worker, asynchronous and blocking fork-join.</summary>
public sealed class ForkJoinAndDeepRecursionTests
{
    private const int Muscles = 1 << 10;

    [Theory]
    [InlineData("pair1")]
    [InlineData("dedicated1")]
    public async Task Asynchronous_CompletesADeepRecursion_OnOneWorker(string schedulerName)
    {
        using var dedicated = schedulerName == "dedicated1" ? new DedicatedThreadScheduler(1) : null;
        using SchedulerLease? lease = dedicated is null ? TestSchedulers.Create(schedulerName) : null;
        TaskScheduler scheduler = dedicated ?? lease!.Scheduler;

        // Quicksort of 2^16 elements with granularity 2^16 / 2^10: at least 2^10 execute muscles, depth ≥ 11.
        var profiler = new PhaseProfiler();
        var program = new QuickSort(ProblemSize.Small, 1 << 16, seed: 7) { Profiler = profiler };
        program.Granularity = (1 << 16) / Muscles;

        await program.RunParallelAsync(scheduler).WaitAsync(SkeletonPrograms.Timeout);

        program.Verify();
        Assert.True(profiler.TotalCount(DivConPhase.Execute) >= Muscles, $"{profiler.TotalCount(DivConPhase.Execute)} muscles");
        Assert.True(profiler.Snapshot().Count >= 11);
    }

    [Fact]
    public async Task Asynchronous_CompletesTheSameProgram_OnTheSameNonInliningWorker()
    {
        using var scheduler = new DedicatedThreadScheduler(1);
        var probe = new CallProbe();
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(scheduler, grain: 1, probe);

        long result = await program.RunAsync(new ElementRange(0, Muscles)).WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal(SkeletonPrograms.ExpectedSum(Muscles), result);
        Assert.Equal(Muscles, probe.Executes);
    }

    [Fact]
    public async Task ForkJoin_OnOneWorker_SolvesEveryChildInsideItsWaitingParent()
    {
        // On one worker no task ever claims a child before its parent does: the parent solves them all itself.
        using SchedulerLease lease = TestSchedulers.Create("pair1");
        var inlined = new InlineDetector();
        DivConBase<ElementRange, long> program = DivConFactory.Create<ElementRange, long>(
            lease.Scheduler,
            shouldSplit: (range, level) => range.Length > 1,
            split: (range, level) =>
            {
                inlined.OpenSplit();
                return range.Split(2);
            },
            executeMuscle: (range, level) =>
            {
                inlined.Execute();
                return range.Min;
            },
            merge: (results, level) =>
            {
                inlined.CloseSplit();
                return results[0] + results[1];
            });
        program.Execution = DivConExecution.ForkJoin;

        long result = await program.RunAsync(new ElementRange(0, Muscles)).WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal(SkeletonPrograms.ExpectedSum(Muscles), result);
        Assert.Equal(Muscles, inlined.Executes);
        Assert.Equal(Muscles, inlined.InlinedExecutes); // every muscle ran on a thread whose parent split was still waiting
    }

    // In fork-join, a split and its merge run on the same thread with the blocking wait between them: a muscle that
    // runs on a thread with an open split was inlined into that wait.
    private sealed class InlineDetector
    {
        [ThreadStatic]
        private static int t_openSplits;

        private int _executes;
        private int _inlinedExecutes;

        public int Executes => Volatile.Read(ref _executes);

        public int InlinedExecutes => Volatile.Read(ref _inlinedExecutes);

        public void OpenSplit() => t_openSplits++;

        public void CloseSplit() => t_openSplits--;

        public void Execute()
        {
            Interlocked.Increment(ref _executes);
            if (t_openSplits > 0)
            {
                Interlocked.Increment(ref _inlinedExecutes);
            }
        }
    }
}
