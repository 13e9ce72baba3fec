using System.Collections.Concurrent;
using DivCon.Multiprogramming;
using DivCon.Scheduling;

namespace DivCon.Tests.Multiprogramming;

/// <summary>
/// The chunked loops' semantics (issue 20, item 0), the same on a standalone WorkStealingTaskScheduler (where no worker is
/// ever asked to move) and on a program's scheduler with a competing program: every index exactly once, chunks that tile
/// the range, exceptions as AggregateException, cancellation as OperationCanceledException, ForEachAsync bodies resuming
/// on the scheduler. Every wait is bounded.
/// </summary>
public abstract class ChunkedLoopTests : IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    /// <summary>The scheduler the loops run on.</summary>
    protected abstract TaskScheduler Scheduler { get; }

    /// <summary>Runs <paramref name="body"/> as code hosted on <see cref="Scheduler"/>.</summary>
    protected abstract Task Host(Func<Task> body);

    public abstract void Dispose();

    [Theory]
    [InlineData(0, 0, null)]
    [InlineData(5, 6, null)]
    [InlineData(-100, 10_000, null)]
    [InlineData(0, 10_000, 1)]
    [InlineData(0, 10_001, 64)]
    public void For_runs_every_index_exactly_once_from_outside_and_from_inside(int from, int to, int? chunk)
    {
        var options = new ChunkedLoopOptions { ChunkSize = chunk };
        var outside = new int[to - from];
        ChunkedLoops.For(Scheduler, from, to, i => Interlocked.Increment(ref outside[i - from]), options);
        Assert.All(outside, c => Assert.Equal(1, c));

        var inside = new int[to - from];
        Wait(Host(() =>
        {
            ChunkedLoops.For(Scheduler, from, to, i => Interlocked.Increment(ref inside[i - from]), options);
            return Task.CompletedTask;
        }));
        Assert.All(inside, c => Assert.Equal(1, c));

        var awaited = new int[to - from];
        Wait(Host(() => ChunkedLoops.ForAsync(Scheduler, from, to, i => Interlocked.Increment(ref awaited[i - from]), options)));
        Assert.All(awaited, c => Assert.Equal(1, c));
    }

    [Fact]
    public void Range_chunks_tile_the_range_and_run_on_the_scheduler()
    {
        var chunks = new ConcurrentBag<(int From, int To)>();
        var wrongScheduler = 0;
        Wait(ChunkedLoops.ForAsync(Scheduler, 3, 50_003, (a, b) =>
        {
            if (!ReferenceEquals(TaskScheduler.Current, Scheduler))
            {
                Interlocked.Increment(ref wrongScheduler);
            }

            chunks.Add((a, b));
        }));

        Assert.Equal(0, wrongScheduler);
        (int From, int To)[] ordered = [.. chunks.OrderBy(c => c.From)];
        Assert.Equal(3, ordered[0].From);
        Assert.Equal(50_003, ordered[^1].To);
        for (int i = 1; i < ordered.Length; i++)
        {
            Assert.Equal(ordered[i - 1].To, ordered[i].From);
        }

        Assert.All(ordered, c => Assert.True(c.To > c.From));
        Assert.True(ordered.Length < 50_000, "Adaptive chunks never grew past one index.");
    }

    [Fact]
    public void Exceptions_come_back_together_as_an_AggregateException_and_stop_the_loop()
    {
        var ran = 0;
        void Body(int i)
        {
            Interlocked.Increment(ref ran);
            if (i is 17 or 40_000)
            {
                throw new InvalidOperationException($"index {i}");
            }
        }

        var options = new ChunkedLoopOptions { ChunkSize = 8 };
        AggregateException sync = Assert.Throws<AggregateException>(() => ChunkedLoops.For(Scheduler, 0, 1_000_000, Body, options));
        Assert.All(sync.InnerExceptions, e => Assert.IsType<InvalidOperationException>(e));
        Assert.Contains(sync.InnerExceptions, e => e.Message == "index 17");
        Assert.True(Volatile.Read(ref ran) < 1_000_000, "The loop ran on after the first exception.");

        Task faulted = ChunkedLoops.ForAsync(Scheduler, 0, 1_000, Body, options);
        Assert.True(((IAsyncResult)faulted).AsyncWaitHandle.WaitOne(Timeout), "The loop did not end.");
        Assert.True(faulted.IsFaulted);
        Assert.Contains(faulted.Exception!.InnerExceptions, e => e.Message == "index 17");
    }

    [Fact]
    public void Cancellation_ends_the_loop_canceled()
    {
        using var cts = new CancellationTokenSource();
        var ran = 0;
        var options = new ChunkedLoopOptions { ChunkSize = 4, CancellationToken = cts.Token };
        void Body(int i)
        {
            if (Interlocked.Increment(ref ran) == 100)
            {
                cts.Cancel();
            }
        }

        OperationCanceledException oce = Assert.Throws<OperationCanceledException>(() => ChunkedLoops.For(Scheduler, 0, 10_000_000, Body, options));
        Assert.Equal(cts.Token, oce.CancellationToken);
        Assert.True(Volatile.Read(ref ran) < 10_000_000);

        Task canceled = ChunkedLoops.ForAsync(Scheduler, 0, 10, _ => { }, options);
        Assert.True(((IAsyncResult)canceled).AsyncWaitHandle.WaitOne(Timeout), "The loop did not end.");
        Assert.True(canceled.IsCanceled);
    }

    [Fact]
    public void ForEachAsync_runs_every_element_once_and_resumes_on_the_scheduler()
    {
        var seen = new int[500];
        var misplaced = 0;
        Wait(Host(() => ChunkedLoops.ForEachAsync(Scheduler, Enumerable.Range(0, seen.Length), async (i, token) =>
        {
            await Task.Yield();
            if (!ReferenceEquals(TaskScheduler.Current, Scheduler))
            {
                Interlocked.Increment(ref misplaced);
            }

            Interlocked.Increment(ref seen[i]);
        })));

        Assert.All(seen, c => Assert.Equal(1, c));
        Assert.Equal(0, misplaced);
    }

    [Fact]
    public void ForEachAsync_faults_with_the_bodies_exceptions_and_cancels_with_the_token()
    {
        Task faulted = ChunkedLoops.ForEachAsync(Scheduler, Enumerable.Range(0, 1000), (i, token) =>
            i == 7 ? throw new InvalidOperationException("seven") : ValueTask.CompletedTask);
        Assert.True(((IAsyncResult)faulted).AsyncWaitHandle.WaitOne(Timeout), "The loop did not end.");
        Assert.True(faulted.IsFaulted);
        Assert.Contains(faulted.Exception!.InnerExceptions, e => e.Message == "seven");

        using var cts = new CancellationTokenSource();
        Task canceled = ChunkedLoops.ForEachAsync(Scheduler, Enumerable.Range(0, 1_000_000), async (i, token) =>
        {
            if (i == 50)
            {
                await cts.CancelAsync();
            }

            await Task.Delay(0, token);
        }, new ChunkedLoopOptions { CancellationToken = cts.Token });
        Assert.True(((IAsyncResult)canceled).AsyncWaitHandle.WaitOne(Timeout), "The loop did not end.");
        Assert.True(canceled.IsCanceled, $"Status {canceled.Status}: {canceled.Exception}");
    }

    [Fact]
    public void Bad_options_are_rejected_with_what_is_allowed()
    {
        Assert.Contains("at least 1", Assert.Throws<ArgumentOutOfRangeException>(() => ChunkedLoops.For(Scheduler, 0, 1, _ => { }, new ChunkedLoopOptions { ChunkSize = 0 })).Message);
        Assert.Contains("must not be below", Assert.Throws<ArgumentOutOfRangeException>(() => ChunkedLoops.For(Scheduler, 2, 1, _ => { })).Message);
        Assert.Contains("between 1 µs and 1 s", Assert.Throws<ArgumentOutOfRangeException>(() => ChunkedLoops.For(Scheduler, 0, 1, _ => { }, new ChunkedLoopOptions { TargetChunkTime = TimeSpan.FromSeconds(2) })).Message);
        Assert.False(ChunkedLoops.ShouldYield); // not a worker
    }

    private static void Wait(Task task)
    {
        Assert.True(((IAsyncResult)task).AsyncWaitHandle.WaitOne(Timeout), "The hosted code did not finish in time.");
        task.GetAwaiter().GetResult();
    }
}

/// <summary>The loops on a standalone work-stealing scheduler with two workers: nobody ever asks a worker to move.</summary>
public sealed class ChunkedLoopsOnWorkStealingSchedulerTests : ChunkedLoopTests
{
    private readonly WorkStealingTaskScheduler _scheduler = new(new WorkStealingSchedulerOptions { WorkerCount = 2 });

    protected override TaskScheduler Scheduler => _scheduler;

    protected override Task Host(Func<Task> body) =>
        Task.Factory.StartNew(body, CancellationToken.None, TaskCreationOptions.DenyChildAttach, _scheduler).Unwrap();

    public override void Dispose() => Assert.True(Task.Run(_scheduler.Dispose).Wait(TimeSpan.FromSeconds(30)), "Dispose did not return within 30 s.");
}

/// <summary>The loops on a program's scheduler, with a second program competing for the two workers (moves happen).</summary>
public sealed class ChunkedLoopsOnProgramSchedulerTests : ChunkedLoopTests
{
    private readonly MultiProgramScheduler _mps = new(new MultiProgramSchedulerOptions
    {
        Processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray(),
        BestEffortPinning = true,
        RepartitionInterval = TimeSpan.FromMilliseconds(5),
        Policy = new ChaosPolicy(seed: 20),
    });

    private readonly ProgramHandle _program;
    private readonly CompetingLoad _other;

    public ChunkedLoopsOnProgramSchedulerTests()
    {
        _program = _mps.AddProgram("loops");
        _other = new CompetingLoad(_mps.AddProgram("other"));
    }

    protected override TaskScheduler Scheduler => _program.Scheduler;

    protected override Task Host(Func<Task> body) => _program.Run(body);

    public override void Dispose()
    {
        _other.Dispose();
        Assert.True(Task.Run(_mps.Dispose).Wait(TimeSpan.FromSeconds(30)), "Dispose did not return within 30 s.");
    }
}
