using System.Collections.Concurrent;
using System.Diagnostics;
using DivCon.Scheduling;
using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

/// <summary>
/// Issue 15, the API: RunAsync with a token, the context (level, token, scheduler) in every muscle, asynchronous muscles,
/// the binary shape, the current scheduler as the default, HideScheduler, and a clear error for a split that does not
/// shrink its problem.
/// </summary>
public sealed class SkeletonApiTests
{
    [Fact]
    public async Task Binary_SumsARange_WithoutArraysOrLevels()
    {
        DivConBase<(long From, long To), long> sum = DivConFactory.CreateBinary<(long From, long To), long>(
            shouldSplit: r => r.To - r.From > 1000,
            split: r => ((r.From, (r.From + r.To) / 2), ((r.From + r.To) / 2, r.To)),
            executeMuscle: r =>
            {
                long s = 0;
                for (long i = r.From; i < r.To; i++)
                {
                    s += i;
                }

                return s;
            },
            merge: (left, right) => left + right);

        long result = await sum.RunAsync((0, 1_000_000)).WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal(SkeletonPrograms.ExpectedSum(1_000_000), result);
    }

    [Fact]
    public async Task Binary_MergesLeftThenRight()
    {
        DivConBase<ElementRange, string> letters = DivConFactory.CreateBinary<ElementRange, string>(
            shouldSplit: r => r.Length > 1,
            split: r => (new ElementRange(r.Min, r.Min + (r.Length / 2)), new ElementRange(r.Min + (r.Length / 2), r.Max)),
            executeMuscle: r => ((char)('a' + r.Min)).ToString(),
            merge: (left, right) => left + right);

        Assert.Equal("abcdefghijklmnopqrstuvwxyz", await letters.RunAsync(new ElementRange(0, 26)).WaitAsync(SkeletonPrograms.Timeout));
    }

    [Theory]
    [InlineData(DivConExecution.Asynchronous, "ws1")]
    [InlineData(DivConExecution.Asynchronous, "ws2")]
    [InlineData(DivConExecution.Asynchronous, "mps1")]
    [InlineData(DivConExecution.ForkJoin, "ws1")]
    [InlineData(DivConExecution.ForkJoin, "ws2")]
    public async Task AsynchronousMuscles_AwaitWithoutHoldingAWorker_AndGetLevelAndToken(DivConExecution mode, string schedulerName)
    {
        using SchedulerLease lease = TestSchedulers.Create(schedulerName);
        using var cts = new CancellationTokenSource();
        var levels = new ConcurrentBag<int>();
        var tokens = new ConcurrentBag<CancellationToken>();
        DivConBase<ElementRange, long> program = DivConFactory.CreateBinary<ElementRange, long>(
            shouldSplit: (r, c) => r.Length > 100,
            split: async (r, c) =>
            {
                await Task.Delay(1, c.CancellationToken);
                ElementRange[] halves = r.Split(2);
                return (halves[0], halves[1]);
            },
            executeMuscle: async (r, c) =>
            {
                levels.Add(c.Level);
                tokens.Add(c.CancellationToken);
                await Task.Yield();
                long s = 0;
                for (int i = r.Min; i < r.Max; i++)
                {
                    s += i;
                }

                return s;
            },
            merge: async (left, right, c) =>
            {
                await Task.Yield();
                return left + right;
            },
            taskScheduler: lease.Scheduler);
        program.Execution = mode;

        long result = await program.RunAsync(new ElementRange(0, 6400), cts.Token).WaitAsync(SkeletonPrograms.Timeout);

        Assert.Equal(SkeletonPrograms.ExpectedSum(6400), result);
        Assert.Equal(64, levels.Count);
        Assert.All(levels, level => Assert.Equal(7, level)); // 6400 halved 6 times: 100, at level 7
        Assert.All(tokens, token => Assert.True(token.CanBeCanceled));
    }

    [Fact]
    public async Task TheContextToken_IsCanceledByTheCaller_AndAMuscleWaitingOnItEndsTheRunCanceled()
    {
        using var cts = new CancellationTokenSource();
        using var waiting = new SemaphoreSlim(0);
        DivConBase<int, int> program = DivConFactory.Create<int, int>(
            shouldSplit: (p, c) => false,
            split: (p, c) => throw new UnreachableException(),
            executeMuscle: async (p, c) =>
            {
                waiting.Release();
                await Task.Delay(Timeout.Infinite, c.CancellationToken);
                return p;
            },
            merge: (r, c) => throw new UnreachableException());

        Task<int> run = program.RunAsync(1, cts.Token);
        Assert.True(await waiting.WaitAsync(SkeletonPrograms.Timeout));
        cts.Cancel();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run.WaitAsync(SkeletonPrograms.Timeout));
        Assert.True(run.IsCanceled);
    }

    [Theory]
    [InlineData(DivConExecution.Asynchronous)]
    [InlineData(DivConExecution.ForkJoin)]
    public async Task TheContextToken_IsCanceledByAFault_AndTheWaitingMusclesCancellationIsNotASecondFault(DivConExecution mode)
    {
        // As Parallel.ForEachAsync does with the token it gives its bodies: the first fault cancels it.
        using SchedulerLease lease = TestSchedulers.Create("ws2");
        using var waiting = new SemaphoreSlim(0);
        var fault = new InvalidDataException("the right half fails");
        DivConBase<int, int> program = DivConFactory.Create<int, int>(
            shouldSplit: (p, c) => p == 0,
            split: (p, c) => new ValueTask<int[]>([1, 2]),
            executeMuscle: async (p, c) =>
            {
                if (p == 1)
                {
                    waiting.Release();
                    await Task.Delay(Timeout.Infinite, c.CancellationToken);
                    return p;
                }

                Assert.True(await waiting.WaitAsync(SkeletonPrograms.Timeout));
                throw fault;
            },
            merge: (r, c) => new(r[0] + r[1]),
            taskScheduler: lease.Scheduler);
        program.Execution = mode;

        Task<int> run = program.RunAsync(0);

        Assert.Same(fault, await Assert.ThrowsAsync<InvalidDataException>(() => run.WaitAsync(SkeletonPrograms.Timeout)));
        Assert.Same(fault, Assert.Single(run.Exception!.InnerExceptions));
    }

    [Fact]
    public async Task WithoutAScheduler_TheRunUsesTheCurrentScheduler()
    {
        using var scheduler = new WorkStealingTaskScheduler(2);
        var seen = new ConcurrentBag<TaskScheduler>();
        DivConBase<ElementRange, long> program = DivConFactory.CreateBinary<ElementRange, long>(
            shouldSplit: r => r.Length > 10,
            split: r => (r.Split(2)[0], r.Split(2)[1]),
            executeMuscle: r =>
            {
                seen.Add(TaskScheduler.Current);
                return r.Length;
            },
            merge: (a, b) => a + b);
        Assert.Null(program.Scheduler);

        // Started from a task on the work-stealing scheduler: its tasks go there.
        long inside = await Task.Factory.StartNew(
            () => program.RunAsync(new ElementRange(0, 1000)), CancellationToken.None, TaskCreationOptions.None, scheduler).Unwrap().WaitAsync(SkeletonPrograms.Timeout);
        Assert.Equal(1000, inside);
        Assert.All(seen, s => Assert.Same(scheduler, s));

        // Started outside any task: TaskScheduler.Default.
        seen.Clear();
        long outside = await Task.Run(() => program.RunAsync(new ElementRange(0, 1000))).WaitAsync(SkeletonPrograms.Timeout);
        Assert.Equal(1000, outside);
        Assert.All(seen, s => Assert.Same(TaskScheduler.Default, s));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task HideScheduler_DecidesWhatTaskSchedulerCurrentIsInAMuscle_TheContextAlwaysHasTheRunsScheduler(bool hide)
    {
        using var scheduler = new WorkStealingTaskScheduler(2);
        var current = new ConcurrentBag<TaskScheduler>();
        var fromContext = new ConcurrentBag<TaskScheduler>();
        DivConBase<ElementRange, long> program = DivConFactory.CreateBinary<ElementRange, long>(
            shouldSplit: (r, c) => r.Length > 10,
            split: (r, c) => new((r.Split(2)[0], r.Split(2)[1])),
            executeMuscle: (r, c) =>
            {
                current.Add(TaskScheduler.Current);
                fromContext.Add(c.Scheduler);
                return new(r.Length);
            },
            merge: (a, b, c) => new(a + b),
            taskScheduler: scheduler);
        program.HideScheduler = hide;

        Assert.Equal(1000, await program.RunAsync(new ElementRange(0, 1000)).WaitAsync(SkeletonPrograms.Timeout));

        Assert.NotEmpty(current);
        Assert.All(current, s => Assert.Same(hide ? TaskScheduler.Default : scheduler, s));
        Assert.All(fromContext, s => Assert.Same(scheduler, s));
    }

    public static TheoryData<DivConExecution, string> BadSplits()
    {
        var data = new TheoryData<DivConExecution, string>();
        foreach (DivConExecution mode in Enum.GetValues<DivConExecution>())
        {
            data.Add(mode, "same instance");
            data.Add(mode, "equal value");
            data.Add(mode, "not smaller");
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(BadSplits))]
    public async Task ASplitThatDoesNotShrinkItsProblem_FaultsTheRunWithAClearMessage(DivConExecution mode, string kind)
    {
        // Before, each of these recursed without end (until memory ran out).
        Task run;
        string expected;
        if (kind == "same instance")
        {
            DivConBase<int[], int> program = DivConFactory.Create<int[], int>(
                TaskScheduler.Default, (p, level) => p.Length > 1, p => [p], p => p.Length, r => r[0]);
            program.Execution = mode;
            run = program.RunAsync([1, 2, 3]);
            expected = "returned the problem itself as subproblem 0";
        }
        else if (kind == "equal value")
        {
            DivConBase<ElementRange, int> program = DivConFactory.Create<ElementRange, int>(
                TaskScheduler.Default, (p, level) => p.Length > 1, p => [new ElementRange(p.Min, p.Min), new ElementRange(p.Min, p.Max)], p => p.Length, r => r[0] + r[1]);
            program.Execution = mode;
            run = program.RunAsync(new ElementRange(0, 10));
            expected = "returned the problem itself as subproblem 1";
        }
        else
        {
            // A new array of the same length is not equal to the problem: only the size function shows it is no smaller.
            DivConBase<int[], int> program = DivConFactory.Create<int[], int>(
                shouldSplit: (p, c) => p.Length > 1,
                split: (p, c) => new ValueTask<int[][]>([p[..1], (int[])p.Clone()]),
                executeMuscle: (p, c) => new(p.Length),
                merge: (r, c) => new(r[0] + r[1]),
                taskScheduler: TaskScheduler.Default,
                problemSize: p => p.Length);
            program.Execution = mode;
            run = program.RunAsync([1, 2, 3]);
            expected = "returned subproblem 1 of size 3, not smaller than its problem's 3";
        }

        InvalidOperationException e = await Assert.ThrowsAsync<InvalidOperationException>(() => run.WaitAsync(SkeletonPrograms.Timeout));
        Assert.Contains(expected, e.Message, StringComparison.Ordinal);
        Assert.Contains("at level 1", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AGranularProgram_GivesItsSizes_SoASplitThatDoesNotShrinkFaults()
    {
        var program = new NonShrinkingSum();

        InvalidOperationException e = await Assert.ThrowsAsync<InvalidOperationException>(() => program.RunAsync().WaitAsync(SkeletonPrograms.Timeout));

        Assert.Contains("returned subproblem 0 of size 100, not smaller than its problem's 100", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AProgramThatDoesNotSupportConcurrentRuns_RejectsASecondRunWhileOneIsInProgress_AndAcceptsItAfterwards()
    {
        using var release = new SemaphoreSlim(0);
        var program = new ExclusiveProgram(release);

        Task<int> first = program.RunAsync(1);
        InvalidOperationException e = Assert.Throws<InvalidOperationException>(() => { _ = program.RunAsync(2); });
        Assert.Contains("one problem at a time", e.Message, StringComparison.Ordinal);
        release.Release();
        Assert.Equal(1, await first.WaitAsync(SkeletonPrograms.Timeout));

        // The run released the instance before its task completed: the next run can start at once.
        release.Release();
        Assert.Equal(2, await program.RunAsync(2).WaitAsync(SkeletonPrograms.Timeout));
    }

    [Fact]
    public void AContextForATest_HasItsLevelTokenAndScheduler()
    {
        using var cts = new CancellationTokenSource();
        var context = new DivConContext(3, cts.Token);
        Assert.Equal(3, context.Level);
        Assert.Equal(cts.Token, context.CancellationToken);
        Assert.Same(TaskScheduler.Default, context.Scheduler);
        Assert.Same(TaskScheduler.Default, default(DivConContext).Scheduler);
        Assert.Throws<ArgumentOutOfRangeException>(() => new DivConContext(0));
    }

    // Splits [a, b) into [a + 1, b + 1) and [a, a + 1): not equal to the problem, but the first part is no smaller.
    private sealed class NonShrinkingSum() : GranularDivCon<ElementRange, long>(100, TaskScheduler.Default)
    {
        public override int BranchingFactor => 2;

        protected override void InitializeCore()
        {
        }

        protected override ElementRange CreateRootProblem() => new(0, 100);

        protected override long GetProblemSize(ElementRange problem) => problem.Length;

        protected override bool ShouldSplit(ElementRange problem, DivConContext context) => problem.Length > 1;

        protected override ElementRange[] Split(ElementRange problem, DivConContext context) =>
            [new ElementRange(problem.Min + 1, problem.Max + 1), new ElementRange(problem.Min, problem.Min + 1)];

        protected override long ExecuteMuscle(ElementRange problem, DivConContext context) => problem.Length;

        protected override long Merge(long[] subResults, DivConContext context) => subResults.Sum();
    }

    // One muscle that waits for the test; its runs may not overlap.
    private sealed class ExclusiveProgram(SemaphoreSlim release) : DivConBase<int, int>(TaskScheduler.Default)
    {
        protected override bool SupportsConcurrentRuns => false;

        protected override bool ShouldSplit(int problem, DivConContext context) => false;

        protected override int[] Split(int problem, DivConContext context) => throw new UnreachableException();

        protected override int ExecuteMuscle(int problem, DivConContext context)
        {
            Assert.True(release.Wait(SkeletonPrograms.Timeout));
            return problem;
        }

        protected override int Merge(int[] subResults, DivConContext context) => throw new UnreachableException();
    }
}
