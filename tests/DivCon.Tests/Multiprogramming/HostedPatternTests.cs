using System.Collections.Concurrent;
using DivCon.Multiprogramming;
using DivCon.Scheduling;

namespace DivCon.Tests.Multiprogramming;

/// <summary>
/// Ordinary .NET parallel code hosted on a DivCon scheduler (issue 20, item 2): Parallel.For / ForEach / Invoke and
/// Parallel.ForEachAsync with ParallelOptions.TaskScheduler, Task.Factory work, async methods whose continuations stay
/// on the scheduler, and a ConcurrentExclusiveSchedulerPair on top. Each pattern runs on a standalone
/// WorkStealingTaskScheduler and on a program's scheduler (started with ProgramHandle.Run); every piece of user code
/// records whether it ran on one of the scheduler's workers with the expected TaskScheduler.Current. Every wait is
/// bounded.
/// </summary>
public abstract class HostedPatternTests : IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);
    private readonly ConcurrentQueue<string> _misplaced = new();

    /// <summary>The scheduler user code is hosted on.</summary>
    protected abstract TaskScheduler Scheduler { get; }

    /// <summary>The pool whose workers serve <see cref="Scheduler"/>.</summary>
    private protected abstract WorkerPool Pool { get; }

    /// <summary>Starts <paramref name="body"/> on <see cref="Scheduler"/> (the way an application would).</summary>
    protected abstract Task Host(Func<Task> body);

    public abstract void Dispose();

    [Fact]
    public void Parallel_For_with_the_scheduler_in_its_options_runs_every_iteration_there()
    {
        var seen = new int[1000];
        Wait(Host(() =>
        {
            Parallel.For(0, seen.Length, new ParallelOptions { TaskScheduler = Scheduler }, i =>
            {
                Check(Scheduler, "Parallel.For body");
                Interlocked.Increment(ref seen[i]);
            });
            return Task.CompletedTask;
        }));
        Assert.All(seen, n => Assert.Equal(1, n));
        AssertNothingMisplaced();
    }

    [Fact]
    public void Parallel_For_called_from_outside_with_the_scheduler_in_its_options_runs_every_iteration_there()
    {
        // The calling thread (not a worker) may run the root replica inline; TaskScheduler.Current is the scheduler
        // for every iteration wherever it runs, and the loop completes.
        var seen = new int[1000];
        Task loop = Task.Factory.StartNew(() => Parallel.For(0, seen.Length, new ParallelOptions { TaskScheduler = Scheduler }, i =>
        {
            if (!ReferenceEquals(TaskScheduler.Current, Scheduler))
            {
                _misplaced.Enqueue($"Parallel.For body: TaskScheduler.Current is {TaskScheduler.Current}");
            }

            Interlocked.Increment(ref seen[i]);
        }), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        Wait(loop);
        Assert.All(seen, n => Assert.Equal(1, n));
        AssertNothingMisplaced();
    }

    [Fact]
    public void Parallel_For_without_a_TaskScheduler_in_its_options_leaves_for_the_thread_pool_even_inside_hosted_code()
    {
        // The pitfall the documentation warns about: on .NET 10, Parallel.For without ParallelOptions.TaskScheduler
        // runs its iterations on TaskScheduler.Default, not on TaskScheduler.Current, so it leaves the program even
        // when called from the program's own task. (Task.Factory.StartNew, by contrast, uses TaskScheduler.Current.)
        int onDefault = 0;
        Wait(Host(() =>
        {
            Check(Scheduler, "hosted code calling Parallel.For");
            Parallel.For(0, 100, _ =>
            {
                if (ReferenceEquals(TaskScheduler.Current, TaskScheduler.Default))
                {
                    Interlocked.Increment(ref onDefault);
                }
            });
            return Task.CompletedTask;
        }));
        Assert.Equal(100, onDefault);
        AssertNothingMisplaced();
    }

    [Fact]
    public void Parallel_ForEach_and_Invoke_with_the_scheduler_in_their_options_run_there()
    {
        var items = Enumerable.Range(0, 300).ToList();
        var visited = new ConcurrentBag<int>();
        int invoked = 0;
        Wait(Host(() =>
        {
            var options = new ParallelOptions { TaskScheduler = Scheduler };
            Parallel.ForEach(items, options, item =>
            {
                Check(Scheduler, "Parallel.ForEach body");
                visited.Add(item);
            });
            Parallel.Invoke(options, Enumerable.Range(0, 8).Select(_ => (Action)(() =>
            {
                Check(Scheduler, "Parallel.Invoke action");
                Interlocked.Increment(ref invoked);
            })).ToArray());
            return Task.CompletedTask;
        }));
        Assert.Equal(items, visited.Order());
        Assert.Equal(8, invoked);
        AssertNothingMisplaced();
    }

    [Fact]
    public void Parallel_ForEachAsync_bodies_run_and_resume_on_the_scheduler()
    {
        var done = new ConcurrentBag<int>();
        Wait(Host(() => Parallel.ForEachAsync(Enumerable.Range(0, 64), new ParallelOptions { TaskScheduler = Scheduler, MaxDegreeOfParallelism = 4 }, async (i, token) =>
        {
            Check(Scheduler, "ForEachAsync body before an await");
            await Task.Yield();
            Check(Scheduler, "ForEachAsync body after Task.Yield");
            await Task.Delay(1, token);
            Check(Scheduler, "ForEachAsync body after Task.Delay");
            done.Add(i);
        })));
        Assert.Equal(Enumerable.Range(0, 64), done.Order());
        AssertNothingMisplaced();
    }

    [Fact]
    public void Task_Factory_work_with_attached_children_and_continuations_runs_on_the_scheduler()
    {
        var factory = new TaskFactory(Scheduler);
        int children = 0;
        Task parent = factory.StartNew(() =>
        {
            Check(Scheduler, "TaskFactory parent");
            for (int i = 0; i < 10; i++)
            {
                // Task.Factory uses TaskScheduler.Current: the scheduler.
                Task.Factory.StartNew(() =>
                {
                    Check(Scheduler, "attached child");
                    Thread.SpinWait(1000);
                    Interlocked.Increment(ref children);
                }, TaskCreationOptions.AttachedToParent);
            }
        });
        Task<int> continuation = parent.ContinueWith(_ =>
        {
            Check(Scheduler, "ContinueWith");
            return Volatile.Read(ref children);
        }, Scheduler);

        // An attached child completes before its parent, so the continuation sees all ten.
        Assert.Equal(10, Wait(continuation));
        AssertNothingMisplaced();
    }

    [Fact]
    public void An_async_method_keeps_its_continuations_on_the_scheduler()
    {
        Task<int> outside = Task.Run(async () =>
        {
            await Task.Delay(5);
            return 7;
        });
        int result = 0;
        Wait(Host(async () =>
        {
            Check(Scheduler, "async method start");
            await Task.Delay(2);
            Check(Scheduler, "after Task.Delay");
            await Task.Yield();
            Check(Scheduler, "after Task.Yield");
            int fromOutside = await outside; // completed on the thread pool
            Check(Scheduler, "after awaiting a thread-pool task");
            int nested = await NestedAsync();
            Check(Scheduler, "after a nested async method");
            result = fromOutside + nested;
        }));
        Assert.Equal(7 + 35, result);
        AssertNothingMisplaced();

        async Task<int> NestedAsync()
        {
            await Task.Delay(1);
            Check(Scheduler, "nested async method after Task.Delay");
            return 35;
        }
    }

    [Fact]
    public void A_ConcurrentExclusiveSchedulerPair_on_top_runs_exclusive_tasks_one_at_a_time_on_the_workers()
    {
        var pair = new ConcurrentExclusiveSchedulerPair(Scheduler);
        int inExclusive = 0;
        int overlaps = 0;
        int exclusiveRuns = 0;
        int concurrentRuns = 0;
        var tasks = new List<Task>();
        for (int i = 0; i < 40; i++)
        {
            tasks.Add(Task.Factory.StartNew(() =>
            {
                Check(pair.ExclusiveScheduler, "exclusive task");
                if (Interlocked.Increment(ref inExclusive) != 1)
                {
                    Interlocked.Increment(ref overlaps);
                }

                Thread.SpinWait(20_000);
                Interlocked.Decrement(ref inExclusive);
                Interlocked.Increment(ref exclusiveRuns);
            }, CancellationToken.None, TaskCreationOptions.None, pair.ExclusiveScheduler));
            tasks.Add(Task.Factory.StartNew(() =>
            {
                Check(pair.ConcurrentScheduler, "concurrent task");
                if (Volatile.Read(ref inExclusive) != 0)
                {
                    Interlocked.Increment(ref overlaps);
                }

                Interlocked.Increment(ref concurrentRuns);
            }, CancellationToken.None, TaskCreationOptions.None, pair.ConcurrentScheduler));
        }

        Wait(Task.WhenAll(tasks));
        pair.Complete();
        Wait(pair.Completion);
        Assert.Equal(40, exclusiveRuns);
        Assert.Equal(40, concurrentRuns);
        Assert.Equal(0, overlaps);
        AssertNothingMisplaced();
    }

    private protected static T Wait<T>(Task<T> task)
    {
        Assert.True(task.Wait(Timeout), $"The hosted work did not finish within {Timeout.TotalSeconds} s.");
        return task.Result;
    }

    private protected static void Wait(Task task)
    {
        Assert.True(task.Wait(Timeout), $"The hosted work did not finish within {Timeout.TotalSeconds} s.");
        task.GetAwaiter().GetResult();
    }

    /// <summary>Records a problem unless the calling code runs on one of the pool's workers with <paramref name="expected"/> current.</summary>
    private void Check(TaskScheduler expected, string where)
    {
        if (!ReferenceEquals(Worker.Current?.Pool, Pool))
        {
            _misplaced.Enqueue($"{where}: on thread '{Thread.CurrentThread.Name}', not a worker of the scheduler");
        }

        if (!ReferenceEquals(TaskScheduler.Current, expected))
        {
            _misplaced.Enqueue($"{where}: TaskScheduler.Current is {TaskScheduler.Current.GetType().Name} ({TaskScheduler.Current.Id}), not {expected.GetType().Name} ({expected.Id})");
        }
    }

    private void AssertNothingMisplaced() => Assert.True(_misplaced.IsEmpty, string.Join("\n", _misplaced.Take(10)));
}

/// <summary>The hosted patterns on a standalone work-stealing scheduler with two workers.</summary>
public sealed class HostedPatternsOnWorkStealingSchedulerTests : HostedPatternTests
{
    private readonly WorkStealingTaskScheduler _scheduler = new(new WorkStealingSchedulerOptions { WorkerCount = 2 });

    protected override TaskScheduler Scheduler => _scheduler;

    private protected override WorkerPool Pool => _scheduler.Pool;

    protected override Task Host(Func<Task> body) =>
        Task.Factory.StartNew(body, CancellationToken.None, TaskCreationOptions.DenyChildAttach, _scheduler).Unwrap();

    public override void Dispose() => Assert.True(Task.Run(_scheduler.Dispose).Wait(TimeSpan.FromSeconds(30)), "Dispose did not return within 30 s.");
}

/// <summary>
/// The hosted patterns on a program's scheduler, started with <see cref="ProgramHandle.Run(Func{Task}, CancellationToken)"/>,
/// with a second program competing for the two workers.
/// </summary>
public sealed class HostedPatternsOnProgramSchedulerTests : HostedPatternTests
{
    private readonly MultiProgramScheduler _mps = new(new MultiProgramSchedulerOptions
    {
        Processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray(),
        BestEffortPinning = true,
        RepartitionInterval = TimeSpan.FromMilliseconds(10),
    });

    private readonly ProgramHandle _program;
    private readonly CompetingLoad _other;

    public HostedPatternsOnProgramSchedulerTests()
    {
        _program = _mps.AddProgram("hosted");
        _other = new CompetingLoad(_mps.AddProgram("other"));
    }

    protected override TaskScheduler Scheduler => _program.Scheduler;

    private protected override WorkerPool Pool => _mps.Pool;

    protected override Task Host(Func<Task> body) => _program.Run(body);

    public override void Dispose()
    {
        _other.Dispose();
        Assert.True(Task.Run(_mps.Dispose).Wait(TimeSpan.FromSeconds(30)), "Dispose did not return within 30 s.");
    }
}
