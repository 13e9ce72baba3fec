using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

/// <summary>Must-show 5: faults and cancellation end the run, with the original exception, and leave nothing running.</summary>
public sealed class FaultAndCancellationTests
{
    private const int Size = 1 << 12;
    private const int Grain = 16; // 256 execute muscles

    public static TheoryData<string, DivConPhase> FaultCases()
    {
        var data = new TheoryData<string, DivConPhase>();
        foreach (string scheduler in new[] { "pair1", "pair2", "default" })
        {
            foreach (DivConPhase phase in new[] { DivConPhase.Split, DivConPhase.Execute, DivConPhase.Merge })
            {
                data.Add(scheduler, phase);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(FaultCases))]
    public async Task ThrowingMuscle_FaultsTheRunWithThatException_AndLeavesNothingRunning(string schedulerName, DivConPhase phase)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        var thrown = new InvalidOperationException("muscle failure");
        int phaseCalls = 0;
        var probe = new CallProbe
        {
            OnCall = (p, range, level, index) =>
            {
                // The 5th call of the phase throws (the 2nd merge: merges are fewer).
                if (p == phase && Interlocked.Increment(ref phaseCalls) == (phase == DivConPhase.Merge ? 2 : 5))
                {
                    throw thrown;
                }
            },
        };
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(lease.Scheduler, Grain, probe);

        Task<long> run = program.RunAsync(new ElementRange(0, Size));

        InvalidOperationException awaited = await Assert.ThrowsAsync<InvalidOperationException>(() => run.WaitAsync(SkeletonPrograms.Timeout));
        Assert.Same(thrown, awaited);
        Assert.True(run.IsFaulted);
        Assert.Same(thrown, Assert.Single(run.Exception!.InnerExceptions));
        await AssertNothingLeftRunning(probe, lease);
    }

    [Theory]
    [InlineData("pair1")]
    [InlineData("pair2")]
    [InlineData("default")]
    public async Task SeveralThrowingMuscles_AllTheirExceptionsAreReachable(string schedulerName)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        using var bothStarted = new CountdownEvent(2);
        var probe = new CallProbe
        {
            OnCall = (phase, range, level, index) =>
            {
                // Two muscles wait for each other, then both throw: each is already running, so both faults happen.
                if (phase == DivConPhase.Execute && range.Length == Size / 2)
                {
                    // On one worker they cannot meet (then only the first runs, after a short wait); on more they
                    // meet as soon as the scheduler starts both, however loaded the machine.
                    bothStarted.Signal();
                    bothStarted.Wait(lease.Scheduler.MaximumConcurrencyLevel == 1 ? TimeSpan.FromMilliseconds(500) : SkeletonPrograms.Timeout);
                    throw new ArgumentException($"muscle {range}");
                }
            },
        };
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(lease.Scheduler, Size / 2, probe);

        Task<long> run = program.RunAsync(new ElementRange(0, Size));

        await Assert.ThrowsAsync<ArgumentException>(() => run.WaitAsync(SkeletonPrograms.Timeout));
        int expected = lease.Scheduler.MaximumConcurrencyLevel == 1 ? 1 : 2;
        Assert.Equal(expected, run.Exception!.InnerExceptions.Count);
        Assert.All(run.Exception.InnerExceptions, e => Assert.IsType<ArgumentException>(e));
        await AssertNothingLeftRunning(probe, lease);
    }

    [Theory]
    [InlineData("pair1")]
    [InlineData("pair2")]
    [InlineData("pair4")]
    [InlineData("default")]
    public async Task CanceledToken_EndsTheRunCanceled_StopsSplitting_AndLeavesNothingRunning(string schedulerName)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        using var cts = new CancellationTokenSource();
        var probe = new CallProbe
        {
            OnCall = (phase, range, level, index) =>
            {
                if (phase == DivConPhase.Execute && index == 3)
                {
                    cts.Cancel();
                }
            },
        };
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(lease.Scheduler, Grain, probe);

        Task<long> run = program.RunAsync(new ElementRange(0, Size), cts.Token);

        OperationCanceledException e = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run.WaitAsync(SkeletonPrograms.Timeout));
        Assert.True(run.IsCanceled);
        Assert.Equal(cts.Token, e.CancellationToken);
        Assert.True(probe.Executes < Size / Grain, $"{probe.Executes} muscles ran after cancellation");
        await AssertNothingLeftRunning(probe, lease);
    }

    [Fact]
    public async Task AlreadyCanceledToken_ReturnsACanceledTask_WithoutRunningAnything()
    {
        var probe = new CallProbe();
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(TaskScheduler.Default, Grain, probe);

        Task<long> run = program.RunAsync(new ElementRange(0, Size), new CancellationToken(canceled: true));

        Assert.True(run.IsCanceled);
        await Task.Delay(50);
        Assert.Equal(0, probe.Started);
    }

    [Theory]
    [InlineData("pair2")]
    [InlineData("default")]
    public async Task ForkJoin_ThrowingMuscle_FaultsWithTheOriginalException(string schedulerName)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        var thrown = new InvalidOperationException("fork-join muscle failure");
        var probe = new CallProbe
        {
            OnCall = (phase, range, level, index) =>
            {
                if (phase == DivConPhase.Execute && index == 7)
                {
                    throw thrown;
                }
            },
        };
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(lease.Scheduler, Grain, probe);
        program.Execution = DivConExecution.ForkJoin;

        Task<long> run = program.RunAsync(new ElementRange(0, Size));

        Assert.Same(thrown, await Assert.ThrowsAsync<InvalidOperationException>(() => run.WaitAsync(SkeletonPrograms.Timeout)));
        Assert.Same(thrown, Assert.Single(run.Exception!.InnerExceptions));
    }

    // No muscle call is in flight when the run's task has completed (asynchronous mode: R2 in
    // DivConBase.Asynchronous.cs), none starts afterwards, and the scheduler drains.
    internal static async Task AssertNothingLeftRunning(CallProbe probe, SchedulerLease lease)
    {
        Assert.Equal(0, probe.Active);
        probe.MarkEnded();
        if (lease.Pair is { } pair)
        {
            pair.Complete();
            await pair.Completion.WaitAsync(SkeletonPrograms.Timeout);
        }
        else
        {
            await Task.Delay(100);
        }

        Assert.Equal(0, probe.StartedAfterEnd);
        Assert.Equal(0, probe.Active);
    }
}
