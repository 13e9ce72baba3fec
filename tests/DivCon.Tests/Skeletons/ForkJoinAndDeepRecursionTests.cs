using DivCon.Samples;
using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

/// <summary>Must-show 2: deep recursion on one worker, asynchronous vs blocking fork-join.</summary>
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
    public async Task ForkJoin_StarvesOnOneWorkerWithoutInlining_AndCancellationReleasesIt()
    {
        using var scheduler = new DedicatedThreadScheduler(1);
        var probe = new CallProbe();
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(scheduler, grain: 1, probe);
        program.Execution = DivConExecution.ForkJoin;
        using var cts = new CancellationTokenSource();

        Task<long> run = program.Input(new ElementRange(0, Muscles), cts.Token);

        // The root splits, queues its two children and blocks its only worker waiting for them: nothing else can run.
        Assert.True(await SkeletonPrograms.EventuallyAsync(() => probe.Started == 1 && scheduler.QueuedCount == 2));
        await Task.Delay(TimeSpan.FromSeconds(1));
        Assert.False(run.IsCompleted);
        Assert.Equal(1, probe.Started);            // the root's split only
        Assert.Equal(2, scheduler.QueuedCount);    // its two children, never started
        Assert.Equal(1, scheduler.ExecutingCount); // the blocked root

        cts.Cancel();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run.WaitAsync(SkeletonPrograms.Timeout));
        Assert.True(run.IsCanceled);

        // The released worker drains the two children, which end canceled without running a muscle.
        Assert.True(await SkeletonPrograms.EventuallyAsync(() => scheduler.QueuedCount == 0 && scheduler.ExecutingCount == 0));
        Assert.Equal(1, probe.Started);
    }

    [Fact]
    public async Task Asynchronous_CompletesTheSameProgram_OnTheSameNonInliningWorker()
    {
        using var scheduler = new DedicatedThreadScheduler(1);
        var probe = new CallProbe();
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(scheduler, grain: 1, probe);

        long result = await program.Input(new ElementRange(0, Muscles)).WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal(SkeletonPrograms.ExpectedSum(Muscles), result);
        Assert.Equal(Muscles, probe.Executes);
    }

    [Fact]
    public async Task ForkJoin_OnAOneWorkerSchedulerPair_CompletesOnlyByInliningChildrenIntoWaitingParents()
    {
        // ConcurrentExclusiveSchedulerPair(maxConcurrency 1) lets a waiting task run a not-yet-started child inline.
        // Without that the root would block the only worker, as on the dedicated scheduler above.
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

        long result = await program.Input(new ElementRange(0, Muscles)).WaitAsync(SkeletonPrograms.Timeout);

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
