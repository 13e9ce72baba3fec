using System.Collections.Concurrent;
using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

/// <summary>
/// Nested parallelism (thesis §8.2): <see cref="DivConContext.ForAsync"/> inside a split or merge runs on the run's
/// scheduler, with the calling thread taking part, so it completes on one worker and under a blocked fork-join worker.
/// </summary>
public sealed class NestedParallelismTests
{
    public static TheoryData<DivConExecution, string> ModesAndSchedulers()
    {
        var data = new TheoryData<DivConExecution, string>();
        foreach (DivConExecution mode in Enum.GetValues<DivConExecution>())
        {
            foreach (string scheduler in new[] { "ws1", "ws2", "mps1", "mps2", "pair1", "default" })
            {
                data.Add(mode, scheduler);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(ModesAndSchedulers))]
    public async Task ForAsyncInSplitAndMerge_RunsEveryIterationOnce_OnTheRunsScheduler(DivConExecution mode, string schedulerName)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        var iterationSchedulers = new ConcurrentBag<TaskScheduler>();
        // A split writes 64 cells of a block in parallel (the "submatrix additions"), a merge sums 64 cells in parallel.
        DivConBase<ElementRange, long> program = DivConFactory.Create<ElementRange, long>(
            shouldSplit: (r, c) => r.Length > 64,
            split: async (r, c) =>
            {
                int[] cells = new int[64];
                await c.ForAsync(0, cells.Length, i =>
                {
                    iterationSchedulers.Add(TaskScheduler.Current);
                    cells[i] = 1;
                });
                Assert.All(cells, cell => Assert.Equal(1, cell));
                return r.Split(2);
            },
            executeMuscle: (r, c) =>
            {
                long s = 0;
                for (int i = r.Min; i < r.Max; i++)
                {
                    s += i;
                }

                return new(s);
            },
            merge: async (results, c) =>
            {
                long[] parts = new long[64];
                await c.ForAsync(0, parts.Length, i => parts[i] = i < results.Length ? results[i] : 0);
                return parts.Sum();
            },
            taskScheduler: lease.Scheduler);
        program.Execution = mode;

        long result = await program.RunAsync(new ElementRange(0, 4096)).WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal(SkeletonPrograms.ExpectedSum(4096), result);
        Assert.Equal(63 * 64, iterationSchedulers.Count); // 63 splits of 64 iterations, each once
        // The helpers run on the run's scheduler; the caller's iterations see the muscle's TaskScheduler.Current
        // (the run's scheduler in the asynchronous mode, hidden in fork-join).
        TaskScheduler callers = mode == DivConExecution.ForkJoin ? TaskScheduler.Default : lease.Scheduler;
        Assert.All(iterationSchedulers, s => Assert.True(s == lease.Scheduler || s == callers, $"an iteration ran on {s}"));
    }

    [Fact]
    public async Task ForAsync_OnOneWorker_TheCallerRunsEveryIteration_AndItCompletesSynchronously()
    {
        using SchedulerLease lease = TestSchedulers.Create("ws1");
        var context = new DivConContext(1, CancellationToken.None, lease.Scheduler);
        int thread = Environment.CurrentManagedThreadId;
        var threads = new ConcurrentBag<int>();

        ValueTask loop = context.ForAsync(0, 100, i => threads.Add(Environment.CurrentManagedThreadId));

        Assert.True(loop.IsCompletedSuccessfully);
        await loop;
        Assert.Equal(100, threads.Count);
        Assert.All(threads, t => Assert.Equal(thread, t));
    }

    [Fact]
    public async Task ForAsync_AFaultingIteration_FaultsTheLoop_AndStopsFurtherIterations()
    {
        var context = new DivConContext(1, CancellationToken.None, TaskScheduler.Default);
        int ran = 0;
        var fault = new InvalidDataException("iteration 3");

        // About 10 µs per iteration, 0.1 s for all: far longer than throwing and recording the fault takes.
        ValueTask loop = context.ForAsync(0, 10_000, i =>
        {
            Interlocked.Increment(ref ran);
            if (i == 3)
            {
                throw fault;
            }

            Thread.SpinWait(2000);
        });

        InvalidDataException e = await Assert.ThrowsAsync<InvalidDataException>(async () => await loop);
        Assert.Same(fault, e);
        Assert.True(Volatile.Read(ref ran) < 10_000, $"{ran} iterations ran");
    }

    [Fact]
    public async Task ForAsync_ACanceledToken_CancelsTheLoop()
    {
        using var cts = new CancellationTokenSource();
        var context = new DivConContext(1, cts.Token, TaskScheduler.Default);
        int ran = 0;

        ValueTask loop = context.ForAsync(0, 10_000, i =>
        {
            if (Interlocked.Increment(ref ran) == 5)
            {
                cts.Cancel();
            }
        });

        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () => await loop);
        Assert.True(Volatile.Read(ref ran) < 10_000);
        Assert.True(context.ForAsync(0, 10, i => { }).IsCanceled);
    }

    [Fact]
    public async Task ForAsync_EmptyAndSingleRanges_AndBadArguments()
    {
        var context = new DivConContext(1);
        int calls = 0;
        await context.ForAsync(5, 5, i => calls++);
        await context.ForAsync(5, 6, i => calls += i);
        Assert.Equal(5, calls);
        Assert.Throws<ArgumentOutOfRangeException>(() => { _ = context.ForAsync(6, 5, i => { }); });
        Assert.Throws<ArgumentNullException>(() => { _ = context.ForAsync(0, 5, null!); });
    }
}
