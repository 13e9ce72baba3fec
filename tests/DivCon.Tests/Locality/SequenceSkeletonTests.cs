using System.Diagnostics;
using DivCon.Scheduling;
using DivCon.Skeletons.Sequences;
using DivCon.Tests.Infrastructure;
using DivCon.Tests.Skeletons;

namespace DivCon.Tests.Locality;

public sealed class SequenceSkeletonTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(60);

    public static TheoryData<WindowMode, string> ModesAndSchedulers()
    {
        var data = new TheoryData<WindowMode, string>();
        foreach (WindowMode mode in Enum.GetValues<WindowMode>())
        {
            data.Add(mode, "ws2");
            data.Add(mode, "pair2");
            data.Add(mode, "default");
        }

        return data;
    }

    private static SchedulerLease Lease(string name) =>
        name == "ws2" ? SchedulerLease.Owned(new WorkStealingTaskScheduler(2)) : TestSchedulers.Create(name);

    [Fact]
    public void UndefinedWindowMode_IsRejectedOnEntry_InsteadOfNeverReleasingAChunk()
    {
        // Issue 15, defect 4: before, an undefined mode was accepted and the run never completed after its first window.
        var options = new SequenceOptions { Mode = (WindowMode)7, Grain = 4, WindowSize = 8 };
        int calls = 0;
        ArgumentOutOfRangeException e = Assert.Throws<ArgumentOutOfRangeException>(
            () => { _ = SequenceSkeleton.ForEachRangeAsync(1000, (from, to) => Interlocked.Increment(ref calls), TaskScheduler.Default, options); });
        Assert.Contains("Mode", e.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentOutOfRangeException>(
            () => { _ = SequenceSkeleton.ForEachAsync(new int[10], (i, x) => { }, TaskScheduler.Default, options); });
        Assert.Equal(0, calls);
    }

    [Theory]
    [InlineData(WindowMode.None, 3)]
    [InlineData(WindowMode.Sliding, 3)]
    [InlineData(WindowMode.Sliding, 40)]
    [InlineData(WindowMode.Static, 40)]
    [InlineData(WindowMode.Sliding, 0)]
    public async Task SchedulerThatRefusesTasks_FaultsTheRun_InsteadOfHanging(WindowMode mode, int acceptLimit)
    {
        // Issue 15, defect 4: before, a task that could not be queued (in the first window, or later from a finishing
        // chunk) stayed counted as running, so the run never completed.
        using var scheduler = new DedicatedThreadScheduler(threads: 2, acceptLimit);
        var options = new SequenceOptions { Mode = mode, Grain = 10, WindowSize = 50 };
        int processed = 0;

        Task run = SequenceSkeleton.ForEachRangeAsync(10_000, (from, to) => Interlocked.Add(ref processed, to - from), scheduler, options);

        TaskSchedulerException e = await Assert.ThrowsAsync<TaskSchedulerException>(() => run.WaitAsync(s_timeout));
        Assert.IsType<InvalidOperationException>(e.InnerException);
        Assert.True(run.IsFaulted);
        Assert.True(Volatile.Read(ref processed) < 10_000);
    }

    [Theory]
    [MemberData(nameof(ModesAndSchedulers))]
    public async Task EveryElementIsProcessedExactlyOnce(WindowMode mode, string scheduler)
    {
        using SchedulerLease lease = Lease(scheduler);
        // n not a multiple of the grain, window not a multiple of the grain: the last chunk and the window rounding are exercised.
        int[] source = Enumerable.Range(0, 10_007).ToArray();
        var counts = new int[source.Length];
        var options = new SequenceOptions { Mode = mode, Grain = 16, WindowSize = 250 };

        await SequenceSkeleton.ForEachAsync(source, (i, x) =>
        {
            Assert.Equal(i, x);
            Interlocked.Increment(ref counts[i]);
        }, lease.Scheduler, options).WaitAsync(s_timeout);

        Assert.All(counts, c => Assert.Equal(1, c));

        long[] squares = await SequenceSkeleton.TransformAsync(source, x => (long)x * x, lease.Scheduler, options).WaitAsync(s_timeout);
        Assert.Equal(source.Select(x => (long)x * x), squares);
    }

    [Theory]
    [MemberData(nameof(ModesAndSchedulers))]
    public async Task Ranges_CoverEveryIndexOnce_InGrainSizedChunks_UnderTheWindow(WindowMode mode, string scheduler)
    {
        using SchedulerLease lease = Lease(scheduler);
        const int n = 10_007, grain = 16, window = 250;
        var counts = new int[n];
        var chunkDone = new int[(n + grain - 1) / grain];
        int violations = 0, badChunks = 0;
        await SequenceSkeleton.ForEachRangeAsync(n, (from, to) =>
        {
            // Chunk c is [c·g, min((c+1)·g, n)).
            if (from % grain != 0 || to != Math.Min(from + grain, n))
            {
                Interlocked.Increment(ref badChunks);
            }

            // Windowed modes: the element window (m = 250) before this chunk's first element has finished.
            int before = from - window;
            if (mode != WindowMode.None && before >= 0 && Volatile.Read(ref chunkDone[before / grain]) == 0)
            {
                Interlocked.Increment(ref violations);
            }

            for (int i = from; i < to; i++)
            {
                Interlocked.Increment(ref counts[i]);
            }

            Volatile.Write(ref chunkDone[from / grain], 1);
        }, lease.Scheduler, new SequenceOptions { Mode = mode, Grain = grain, WindowSize = window }).WaitAsync(s_timeout);

        Assert.All(counts, c => Assert.Equal(1, c));
        Assert.Equal(0, badChunks);
        Assert.Equal(0, violations);
    }

    [Fact]
    public async Task Ranges_EmptyCompletes_NegativeLengthAndNullsAreRejected()
    {
        using SchedulerLease lease = SchedulerLease.Owned(new WorkStealingTaskScheduler(1));
        bool called = false;
        await SequenceSkeleton.ForEachRangeAsync(0, (_, _) => called = true, lease.Scheduler).WaitAsync(s_timeout);
        Assert.False(called);
        // Validated synchronously, before any task exists: the Action wrapper discards the task.
        static Action Call(Func<Task> start) => () => start();
        Assert.Throws<ArgumentOutOfRangeException>(Call(() => SequenceSkeleton.ForEachRangeAsync(-1, (_, _) => { }, lease.Scheduler)));
        Assert.Throws<ArgumentNullException>(Call(() => SequenceSkeleton.ForEachRangeAsync(1, null!, lease.Scheduler)));
        Assert.Throws<ArgumentNullException>(Call(() => SequenceSkeleton.ForEachRangeAsync(1, (_, _) => { }, null!)));
        Assert.Throws<ArgumentOutOfRangeException>(Call(() => SequenceSkeleton.ForEachRangeAsync(10, (_, _) => { }, lease.Scheduler, new SequenceOptions { Grain = 0 })));
    }

    [Theory]
    [InlineData(1, 4)]
    [InlineData(8, 64)]
    [InlineData(16, 250)]
    public async Task SlidingWindow_NoElementIPlusMStartsBeforeElementIFinished(int grain, int window)
    {
        using SchedulerLease lease = SchedulerLease.Owned(new WorkStealingTaskScheduler(2));
        WindowTrace trace = await WindowTrace.RunAsync(5_000, WindowMode.Sliding, grain, window, lease.Scheduler);

        trace.AssertExactlyOnce();
        Assert.Equal(0, trace.Violations); // the logical check: done[j − m] was set when j started
        for (int j = 0; j + window < trace.Start.Length; j++)
        {
            Assert.True(trace.Start[j + window] >= trace.End[j], $"element {j + window} started before element {j} ended");
        }
    }

    [Fact]
    public async Task StaticWindow_AWindowStartsOnlyAfterThePreviousWindowEnded()
    {
        using SchedulerLease lease = SchedulerLease.Owned(new WorkStealingTaskScheduler(2));
        const int window = 64;
        WindowTrace trace = await WindowTrace.RunAsync(3_000, WindowMode.Static, 8, window, lease.Scheduler);

        trace.AssertExactlyOnce();
        for (int w = 1; w * window < trace.Start.Length; w++)
        {
            long previousEnd = trace.End.Skip((w - 1) * window).Take(window).Max();
            long firstStart = trace.Start.Skip(w * window).Take(window).Min();
            Assert.True(firstStart >= previousEnd, $"window {w} started before window {w - 1} ended");
        }
    }

    [Fact]
    public async Task EmptySource_CompletesWithoutCallingTheBody()
    {
        int calls = 0;
        await SequenceSkeleton.ForEachAsync(Array.Empty<int>(), (_, _) => calls++, TaskScheduler.Default).WaitAsync(s_timeout);
        Assert.Equal(0, calls);
    }

    [Fact]
    public void BadInput_IsRejectedOnEntry()
    {
        int[] a = [1, 2, 3];
        // ForEachAsync validates synchronously, before any task exists: the Action wrapper discards the task.
        static Action Call(Func<Task> start) => () => start();
        Assert.Throws<ArgumentNullException>(Call(() => SequenceSkeleton.ForEachAsync<int>(null!, (_, _) => { }, TaskScheduler.Default)));
        Assert.Throws<ArgumentNullException>(Call(() => SequenceSkeleton.ForEachAsync(a, null!, TaskScheduler.Default)));
        Assert.Throws<ArgumentNullException>(Call(() => SequenceSkeleton.ForEachAsync(a, (_, _) => { }, null!)));
        var grain = Assert.Throws<ArgumentOutOfRangeException>(Call(() => SequenceSkeleton.ForEachAsync(a, (_, _) => { }, TaskScheduler.Default, new SequenceOptions { Grain = 0 })));
        Assert.Contains("Grain must be at least 1", grain.Message);
        var window = Assert.Throws<ArgumentOutOfRangeException>(Call(() =>
            SequenceSkeleton.ForEachAsync(a, (_, _) => { }, TaskScheduler.Default, new SequenceOptions { Mode = WindowMode.Sliding, Grain = 8, WindowSize = 4 })));
        Assert.Contains("WindowSize must be at least Grain", window.Message);
        Assert.Throws<ArgumentOutOfRangeException>(Call(() => SequenceSkeleton.ForEachAsync(a, (_, _) => { }, TaskScheduler.Default, new SequenceOptions { BytesPerElement = 0 })));
        Assert.Throws<ArgumentOutOfRangeException>(() => SequenceSkeleton.DefaultWindowSize(0, 8, 128));
    }

    [Fact]
    public void DefaultWindowSize_IsHalfTheCacheInElements_AtLeastTheGrain()
    {
        Assert.Equal(8 * 1024 * 1024 / 2 / 8, SequenceSkeleton.DefaultWindowSize(8L * 1024 * 1024, 8, 128));
        Assert.Equal(128, SequenceSkeleton.DefaultWindowSize(1024, 64, 128));
        Assert.True(SequenceSkeleton.DetectLastLevelCacheBytes() > 0);
    }

    [Theory]
    [InlineData(WindowMode.None)]
    [InlineData(WindowMode.Static)]
    [InlineData(WindowMode.Sliding)]
    public async Task Fault_PropagatesAndNoChunkStartsAfterIt(WindowMode mode)
    {
        using SchedulerLease lease = SchedulerLease.Owned(new WorkStealingTaskScheduler(2));
        int[] source = new int[20_000];
        var boom = new InvalidOperationException("boom");
        Task run = SequenceSkeleton.ForEachAsync(source, (i, _) =>
        {
            if (i == 500)
            {
                throw boom;
            }
        }, lease.Scheduler, new SequenceOptions { Mode = mode, Grain = 10, WindowSize = 100 });

        var thrown = await Assert.ThrowsAsync<InvalidOperationException>(() => run.WaitAsync(s_timeout));
        Assert.Same(boom, thrown);
        Assert.Contains(boom, run.Exception!.InnerExceptions);
    }

    [Theory]
    [InlineData(WindowMode.None)]
    [InlineData(WindowMode.Static)]
    [InlineData(WindowMode.Sliding)]
    public async Task Cancellation_StopsTheRunAndCancelsTheTask(WindowMode mode)
    {
        using SchedulerLease lease = SchedulerLease.Owned(new WorkStealingTaskScheduler(2));
        using var cts = new CancellationTokenSource();
        int[] source = new int[200_000];
        int processed = 0;
        Task run = SequenceSkeleton.ForEachAsync(source, (i, _) =>
        {
            if (Interlocked.Increment(ref processed) == 1_000)
            {
                cts.Cancel();
            }
        }, lease.Scheduler, new SequenceOptions { Mode = mode, Grain = 10, WindowSize = 100 }, cts.Token);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run.WaitAsync(s_timeout));
        Assert.True(run.IsCanceled);
        Assert.True(Volatile.Read(ref processed) < source.Length);

        using var already = new CancellationTokenSource();
        already.Cancel();
        Task none = SequenceSkeleton.ForEachAsync(source, (_, _) => { }, lease.Scheduler, new SequenceOptions { Mode = mode, Grain = 10, WindowSize = 100 }, already.Token);
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => none.WaitAsync(s_timeout));
    }

    [Fact]
    public async Task SlidingWindow_Repeated_Fast() => await RepeatSliding(30);

    [StressFact]
    [Trait("Category", "Stress")]
    public async Task SlidingWindow_Repeated_Stress() => await RepeatSliding(2_000);

    private static async Task RepeatSliding(int runs)
    {
        using SchedulerLease lease = SchedulerLease.Owned(new WorkStealingTaskScheduler(4));
        for (int run = 0; run < runs; run++)
        {
            int grain = 1 + run % 3;
            int window = grain * (1 + run % 5);
            WindowTrace trace = await WindowTrace.RunAsync(2_000 + run, run % 2 == 0 ? WindowMode.Sliding : WindowMode.Static, grain, window, lease.Scheduler);
            trace.AssertExactlyOnce();
            Assert.Equal(0, trace.Violations);
        }
    }

    /// <summary>Per-element counts, start/end timestamps and a logical window check, recorded by the body.</summary>
    private sealed class WindowTrace
    {
        public required int[] Counts { get; init; }
        public required long[] Start { get; init; }
        public required long[] End { get; init; }
        public int Violations;

        public static async Task<WindowTrace> RunAsync(int n, WindowMode mode, int grain, int window, TaskScheduler scheduler)
        {
            var done = new int[n];
            var trace = new WindowTrace { Counts = new int[n], Start = new long[n], End = new long[n] };
            await SequenceSkeleton.ForEachAsync(new int[n], (j, _) =>
            {
                trace.Start[j] = Stopwatch.GetTimestamp();
                // Sliding and static both guarantee: j − m finished before j starts.
                if (j >= window && Volatile.Read(ref done[j - window]) == 0)
                {
                    Interlocked.Increment(ref trace.Violations);
                }

                Interlocked.Increment(ref trace.Counts[j]);
                Thread.SpinWait(50);
                trace.End[j] = Stopwatch.GetTimestamp();
                Volatile.Write(ref done[j], 1);
            }, scheduler, new SequenceOptions { Mode = mode, Grain = grain, WindowSize = window }).WaitAsync(s_timeout);
            return trace;
        }

        public void AssertExactlyOnce() => Assert.All(Counts, c => Assert.Equal(1, c));
    }
}
