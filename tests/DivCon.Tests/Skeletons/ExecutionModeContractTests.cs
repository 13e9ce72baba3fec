using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

/// <summary>
/// Issue 15, defects 1 and 2: both execution modes keep the contract of <see cref="DivConBase{TParam, TResult}"/> (class
/// remarks): fork-join completes on one worker with a cancelable token; after a fault no new muscle starts; a fault
/// wins over a cancellation; a muscle's own <see cref="OperationCanceledException"/> faults the run unless it is for the
/// run's token.
/// </summary>
public sealed class ExecutionModeContractTests
{
    private const int Leaves = 256;

    public static TheoryData<DivConExecution, string> ModesOnOneWorker()
    {
        var data = new TheoryData<DivConExecution, string>();
        foreach (DivConExecution mode in Enum.GetValues<DivConExecution>())
        {
            foreach (string scheduler in new[] { "ws1", "mps1", "dedicated1", "pair1" })
            {
                data.Add(mode, scheduler);
            }
        }

        return data;
    }

    public static TheoryData<DivConExecution, string> ModesAndSchedulers()
    {
        var data = new TheoryData<DivConExecution, string>();
        foreach (DivConExecution mode in Enum.GetValues<DivConExecution>())
        {
            foreach (string scheduler in new[] { "ws1", "ws2", "mps1", "pair2", "default" })
            {
                data.Add(mode, scheduler);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(ModesOnOneWorker))]
    public async Task ACancelableToken_NeverCanceled_TheRunCompletesOnOneWorker(DivConExecution mode, string schedulerName)
    {
        // Before, fork-join's Task.WaitAll(children, token) never inlined a child for a cancelable token, so the one
        // worker blocked in the root and nothing else could run.
        using var scheduler = Scheduler(schedulerName);
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(scheduler.Scheduler, grain: 1);
        program.Execution = mode;
        using var cts = new CancellationTokenSource();

        long result = await program.RunAsync(new ElementRange(0, Leaves), cts.Token).WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal(SkeletonPrograms.ExpectedSum(Leaves), result);
    }

    [Theory]
    [MemberData(nameof(ModesOnOneWorker))]
    public async Task ATokenCanceledMidway_EndsTheRunCanceled_OnOneWorker(DivConExecution mode, string schedulerName)
    {
        using var scheduler = Scheduler(schedulerName);
        using var cts = new CancellationTokenSource();
        var probe = new CallProbe
        {
            OnCall = (phase, range, level, index) =>
            {
                if (phase == DivConPhase.Execute && index == 10)
                {
                    cts.Cancel();
                }
            },
        };
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(scheduler.Scheduler, grain: 1, probe);
        program.Execution = mode;

        Task<long> run = program.RunAsync(new ElementRange(0, Leaves), cts.Token);

        OperationCanceledException e = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run.WaitAsync(SkeletonPrograms.Timeout));
        Assert.True(run.IsCanceled);
        Assert.Equal(cts.Token, e.CancellationToken);
        Assert.Equal(11, probe.Executes); // one worker: nothing starts after the muscle that canceled
        Assert.Equal(0, probe.Active);
    }

    [Theory]
    [MemberData(nameof(ModesAndSchedulers))]
    public async Task AfterAFault_NoNewMuscleStarts(DivConExecution mode, string schedulerName)
    {
        // Before, fork-join ran all 256 muscles after the first one threw. A muscle call counts as starting after the
        // fault when the context's token is already canceled at its start: the run cancels it right after recording
        // its first fault (a muscle that observed the throw instead would also count the time the exception takes to
        // reach the skeleton, in which other workers legitimately start calls).
        using var scheduler = Scheduler(schedulerName);
        var fault = new InvalidDataException("the first muscle fails");
        int calls = 0, afterFault = 0, executes = 0;
        void Enter(DivConContext c)
        {
            Interlocked.Increment(ref calls);
            if (c.CancellationToken.IsCancellationRequested)
            {
                Interlocked.Increment(ref afterFault);
            }
        }

        DivConBase<ElementRange, long> program = DivConFactory.Create<ElementRange, long>(
            shouldSplit: (r, c) => r.Length > 1,
            split: (r, c) =>
            {
                Enter(c);
                return new(r.Split(2));
            },
            executeMuscle: (r, c) =>
            {
                Enter(c);
                if (Interlocked.Increment(ref executes) == 1)
                {
                    throw fault;
                }

                return new(r.Min);
            },
            merge: (results, c) =>
            {
                Enter(c);
                return new(results.Sum());
            },
            taskScheduler: scheduler.Scheduler);
        program.Execution = mode;

        Task<long> run = program.RunAsync(new ElementRange(0, Leaves), CancellationToken.None);

        Assert.Same(fault, await Assert.ThrowsAsync<InvalidDataException>(() => run.WaitAsync(SkeletonPrograms.Timeout)));
        Assert.Same(fault, Assert.Single(run.Exception!.InnerExceptions));
        // A thread that checked the run's state just before the fault may start one more call; none starts after that.
        // The default scheduler's threads are the pool's (blocked fork-join parents make it add some).
        int threads = scheduler.Scheduler == TaskScheduler.Default
            ? Math.Max(Environment.ProcessorCount, ThreadPool.ThreadCount)
            : scheduler.Scheduler.MaximumConcurrencyLevel;
        Assert.True(afterFault <= threads, $"{afterFault} of {calls} calls started after the fault was recorded ({threads} threads)");
    }

    [Theory]
    [MemberData(nameof(ModesAndSchedulers))]
    public async Task AFaultAndACancellationTogether_TheFaultWins(DivConExecution mode, string schedulerName)
    {
        // Before, fork-join ended Canceled and the fault surfaced only as an unobserved exception.
        using var scheduler = Scheduler(schedulerName);
        using var cts = new CancellationTokenSource();
        var fault = new FormatException("fault");
        var probe = new CallProbe
        {
            OnCall = (phase, range, level, index) =>
            {
                if (phase == DivConPhase.Execute && index == 3)
                {
                    cts.Cancel();
                    throw fault;
                }
            },
        };
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(scheduler.Scheduler, grain: 1, probe);
        program.Execution = mode;

        Task<long> run = program.RunAsync(new ElementRange(0, Leaves), cts.Token);

        Assert.Same(fault, await Assert.ThrowsAsync<FormatException>(() => run.WaitAsync(SkeletonPrograms.Timeout)));
        Assert.True(run.IsFaulted);
        Assert.Same(fault, Assert.Single(run.Exception!.InnerExceptions));
    }

    [Theory]
    [MemberData(nameof(ModesAndSchedulers))]
    public async Task AMusclesOwnOperationCanceledException_FaultsTheRun(DivConExecution mode, string schedulerName)
    {
        // An HttpClient timeout: an OperationCanceledException for a token that is not the run's. Before, fork-join
        // ended the run Canceled (as if the caller had canceled it).
        using var scheduler = Scheduler(schedulerName);
        using var timeout = new CancellationTokenSource();
        timeout.Cancel();
        var own = new OperationCanceledException("the muscle's own timeout", timeout.Token);
        var probe = new CallProbe
        {
            OnCall = (phase, range, level, index) =>
            {
                if (phase == DivConPhase.Execute && index == 5)
                {
                    throw own;
                }
            },
        };
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(scheduler.Scheduler, grain: 1, probe);
        program.Execution = mode;
        using var caller = new CancellationTokenSource();

        Task<long> run = program.RunAsync(new ElementRange(0, Leaves), caller.Token);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run.WaitAsync(SkeletonPrograms.Timeout));
        Assert.True(run.IsFaulted, $"the run ended {run.Status}");
        Assert.Same(own, Assert.Single(run.Exception!.InnerExceptions));
    }

    [Theory]
    [MemberData(nameof(ModesAndSchedulers))]
    public async Task AMuscleThatThrowsForTheCallersToken_EndsTheRunCanceled(DivConExecution mode, string schedulerName)
    {
        using var scheduler = Scheduler(schedulerName);
        using var cts = new CancellationTokenSource();
        var probe = new CallProbe
        {
            OnCall = (phase, range, level, index) =>
            {
                if (phase == DivConPhase.Execute && index == 5)
                {
                    cts.Cancel();
                    cts.Token.ThrowIfCancellationRequested();
                }
            },
        };
        DivConBase<ElementRange, long> program = SkeletonPrograms.RangeSum(scheduler.Scheduler, grain: 1, probe);
        program.Execution = mode;

        Task<long> run = program.RunAsync(new ElementRange(0, Leaves), cts.Token);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run.WaitAsync(SkeletonPrograms.Timeout));
        Assert.True(run.IsCanceled, $"the run ended {run.Status}");
    }

    // "dedicated1": one thread that never inlines a task; the others come from TestSchedulers.
    private static SchedulerLease Scheduler(string name)
    {
        if (name == "dedicated1")
        {
            var dedicated = new DedicatedThreadScheduler(1);
            return new SchedulerLease(dedicated, dedicated.Dispose);
        }

        return TestSchedulers.Create(name);
    }
}
