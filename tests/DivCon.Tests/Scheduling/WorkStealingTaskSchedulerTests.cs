using System.Diagnostics;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Scheduling;

public sealed class WorkStealingContractTests : SchedulerContractTests
{
    protected override ISchedulerFixture Create(int workers) => new WorkStealingFixture(new WorkStealingTaskScheduler(workers));
}

/// <summary>The contract again with every worker pinned (Linux and Windows; elsewhere best effort runs unpinned).</summary>
public sealed class PinnedWorkStealingContractTests : SchedulerContractTests
{

    protected override ISchedulerFixture Create(int workers)
        => new WorkStealingFixture(WorkStealingTaskScheduler.CreatePinned(ThreadAffinity.GetProcessAffinity().Take(workers), bestEffort: !ThreadAffinity.IsSupported));
}

public sealed class WorkStealingTaskSchedulerTests
{
    private static Task Run(TaskScheduler scheduler, Action action)
        => Task.Factory.StartNew(action, CancellationToken.None, TaskCreationOptions.None, scheduler);

    [Fact]
    public void The_default_worker_count_is_the_processors_this_process_may_use()
    {
        var s = new WorkStealingTaskScheduler();
        using var sDisposal = BoundedDisposal.Of(s);
        Assert.Equal(ThreadAffinity.GetProcessAffinity().Count, s.WorkerCount);
        Assert.Equal(s.WorkerCount, s.MaximumConcurrencyLevel);
        Assert.False(s.IsPinned);
        Assert.Empty(s.PinnedProcessors);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    [InlineData(WorkStealingSchedulerOptions.MaxWorkerCount + 1)]
    public void A_worker_count_outside_1_to_the_maximum_is_rejected_with_the_allowed_range(int workers)
    {
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => new WorkStealingTaskScheduler(workers));
        Assert.Contains($"between 1 and {WorkStealingSchedulerOptions.MaxWorkerCount}", ex.Message);
        Assert.Throws<ArgumentOutOfRangeException>(() => new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { WorkerCount = workers }));
    }

    [Fact]
    public void A_null_task_is_rejected()
    {
        var s = new WorkStealingTaskScheduler(1);
        using var sDisposal = BoundedDisposal.Of(s);
        var hook = new SchedulerHook(s);
        Assert.Throws<ArgumentNullException>(() => hook.Queue(null!));
        Assert.Throws<ArgumentNullException>(() => hook.Inline(null!));
    }

    [Fact]
    public void GetScheduledTasks_lists_the_queued_tasks_for_the_debugger()
    {
        // No compensation: the only worker is blocked on purpose, and a compensating worker (started once this thread
        // has been descheduled for the delay, on a loaded machine) would run the queued tasks before they are listed.
        var s = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { WorkerCount = 1, CompensateBlocking = false });
        using var sDisposal = BoundedDisposal.Of(s);
        using var gate = new ManualResetEventSlim(false);
        using var started = new ManualResetEventSlim(false);
        Task blocker = Run(s, () => { started.Set(); gate.Wait(Wait.Long); });
        Assert.True(started.Wait(Wait.Long));
        Task[] queued = Enumerable.Range(0, 5).Select(_ => Run(s, () => { })).ToArray();
        IEnumerable<Task>? listed = new SchedulerHook(s).Scheduled();
        Assert.NotNull(listed);
        Assert.Equal(queued.ToHashSet(), listed!.ToHashSet()); // exactly the queued ones: the running blocker is not queued
        Assert.Equal(5, s.AvailableTasks);
        gate.Set();
        Wait.For(Task.WhenAll(queued.Append(blocker)));
        Assert.Equal(0, s.AvailableTasks);
    }

    [Fact]
    public void Dispose_completes_the_tasks_queued_before_it_and_runs_later_ones_late()
    {
        var s = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { WorkerCount = 2, CompensateBlocking = false });
        using var gate = new ManualResetEventSlim(false);
        Task[] blockers = [Run(s, () => gate.Wait(Wait.Long)), Run(s, () => gate.Wait(Wait.Long))];
        int ran = 0;
        Task[] queued = Enumerable.Range(0, 1000).Select(_ => Run(s, () => Interlocked.Increment(ref ran))).ToArray();

        Task disposing = Task.Factory.StartNew(s.Dispose, TaskCreationOptions.LongRunning);
        Assert.False(disposing.Wait(100), "Dispose returned while queued tasks were still waiting.");
        Assert.True(s.IsDisposed);

        // Queued from outside after Dispose (an await continuation would come this way): never lost, run late.
        var late = new Task(() => { });
        late.Start(s);
        Wait.For(late, what: "a task queued after Dispose");
        Assert.Equal(1, s.LateTasks);

        gate.Set();
        Wait.For(disposing, what: "Dispose");
        Assert.All(queued, t => Assert.Equal(TaskStatus.RanToCompletion, t.Status));
        Assert.Equal(1000, ran);
        Assert.All(blockers, t => Assert.Equal(TaskStatus.RanToCompletion, t.Status));
        Assert.True(s.Pool.Join(TimeSpan.Zero), "A worker thread is still running after Dispose.");
        Assert.All(s.Pool.Workers, w => Assert.False(w.Thread.IsAlive));

        s.Dispose(); // twice: harmless
        Wait.For(Task.Factory.StartNew(() => { }, CancellationToken.None, TaskCreationOptions.None, s), what: "a task queued after the workers exited");
        Assert.Equal(2, s.LateTasks);
    }

    [Fact]
    public void Tasks_queued_by_running_tasks_during_Dispose_still_run()
    {
        var s = new WorkStealingTaskScheduler(2);
        long expected = SpawnTree.Size(12);
        long count = 0;
        var done = new TaskCompletionSource();
        void Node(int depth)
        {
            if (depth > 0)
            {
                Task.Factory.StartNew(() => Node(depth - 1));
                Task.Factory.StartNew(() => Node(depth - 1));
            }

            if (Interlocked.Increment(ref count) == expected)
            {
                done.SetResult();
            }
        }

        Run(s, () => Node(12));
        Wait.For(Task.Run(s.Dispose), what: "Dispose");
        Assert.True(done.Task.IsCompleted);
        Assert.Equal(expected, Interlocked.Read(ref count));
    }

    [Fact]
    public void Dispose_from_one_of_its_own_workers_does_not_deadlock()
    {
        var s = new WorkStealingTaskScheduler(2);
        Task t = Run(s, s.Dispose);
        Wait.For(t, TimeSpan.FromSeconds(30), "Dispose on a worker");
        Assert.Equal(TaskStatus.RanToCompletion, t.Status);
        Assert.True(s.Pool.Join(TimeSpan.FromSeconds(30)), "The workers did not exit after Dispose on a worker.");
        s.Dispose();
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(8)]
    public void A_spawn_tree_of_a_million_tasks_completes_with_the_exact_count(int workers)
    {
        var s = new WorkStealingTaskScheduler(workers);
        using var sDisposal = BoundedDisposal.Of(s);
        Assert.Equal(SpawnTree.Size(19), SpawnTree.Run(s, 19, TimeSpan.FromSeconds(120)));
        Assert.True(SpawnTree.Size(19) >= 1_000_000);
        Wait.Until(() => s.GetStatistics().TasksExecuted >= SpawnTree.Size(19), "the workers have counted every task");
        Assert.Equal(SpawnTree.Size(19), s.GetStatistics().TasksExecuted);
    }

    [Fact]
    public void Spawn_trees_exercise_deque_growth_and_index_wrap_around()
    {
        // Tiny deques starting just below int.MaxValue: every worker wraps and grows during the run.
        var s = new WorkStealingTaskScheduler(
            new WorkStealingSchedulerOptions { WorkerCount = 2 }, dequeInitialCapacity: 2, dequeStartIndex: int.MaxValue - 5);
        Assert.Equal(SpawnTree.Size(16), SpawnTree.Run(s, 16, TimeSpan.FromSeconds(60)));
        using var sDisposal = BoundedDisposal.Of(s);
    }

    [StressTheory]
    [Trait("Category", "Stress")]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(8)]
    [InlineData(64)]
    public void Stress_repeated_spawn_trees(int workers)
    {
        var s = new WorkStealingTaskScheduler(workers);
        using var sDisposal = BoundedDisposal.Of(s);
        for (int round = 0; round < 20; round++)
        {
            Assert.Equal(SpawnTree.Size(19), SpawnTree.Run(s, 19, TimeSpan.FromSeconds(300)));
        }
    }

    [Fact]
    public void Idle_accounting_adds_up_to_wall_time_and_shows_the_idle_worker()
    {
        var s = new WorkStealingTaskScheduler(2);
        using var sDisposal = BoundedDisposal.Of(s);
        Wait.For(Run(s, () => { })); // let both workers settle
        Thread.Sleep(20);
        s.ResetStatistics();
        TimeSpan length = TimeSpan.FromMilliseconds(300);
        Thread? ranOn = null;
        Wait.For(Run(s, () =>
        {
            ranOn = Thread.CurrentThread;
            var sw = Stopwatch.StartNew();
            while (sw.Elapsed < length)
            {
            }
        }));

        // The worker counts the task just after it completes: wait for that (bounded), not for a fixed time.
        SchedulerStatistics stats = s.GetStatistics();
        for (var sw = Stopwatch.StartNew(); stats.TasksExecuted == 0 && sw.Elapsed < Wait.Long; stats = s.GetStatistics())
        {
            Thread.Sleep(1);
        }

        int busyWorker = s.Pool.Workers.Single(w => ReferenceEquals(w.Thread, ranOn)).Slot;
        WorkerStatistics busy = stats.Workers[busyWorker];
        WorkerStatistics idle = stats.Workers[1 - busyWorker];
        Assert.Equal(1, busy.TasksExecuted);
        Assert.Equal(0, idle.TasksExecuted);
        Assert.True(busy.BusyTime >= length, $"busy {busy.BusyTime}");
        Assert.True(idle.IdleTime >= length * 0.95, $"the idle worker reported {idle.IdleTime} idle over a {length} task");
        Assert.True(idle.IdleTime <= stats.Elapsed * 1.01, $"idle {idle.IdleTime} > elapsed {stats.Elapsed}");

        double sum = stats.Workers.Sum(w => (w.BusyTime + w.IdleTime).TotalMilliseconds);
        double wall = stats.Workers.Count * stats.Elapsed.TotalMilliseconds;
        Assert.InRange(sum / wall, 0.97, 1.03);
        Assert.Equal(stats.BusyTime + stats.IdleTime, stats.Workers.Aggregate(TimeSpan.Zero, (a, w) => a + w.BusyTime + w.IdleTime));
    }

    [Fact]
    public void Statistics_count_tasks_and_steals_and_reset_starts_a_new_window()
    {
        var s = new WorkStealingTaskScheduler(2);
        using var sDisposal = BoundedDisposal.Of(s);
        Assert.Equal(SpawnTree.Size(12), SpawnTree.Run(s, 12, TimeSpan.FromSeconds(60)));
        Wait.Until(() => s.GetStatistics().TasksExecuted >= SpawnTree.Size(12), "the workers have counted every task");
        SchedulerStatistics before = s.GetStatistics();
        Assert.Equal(SpawnTree.Size(12), before.TasksExecuted);
        Assert.Equal(before.Workers.Sum(w => w.TasksExecuted), before.TasksExecuted);
        Assert.True(before.StealTime <= before.IdleTime);

        s.ResetStatistics();
        SchedulerStatistics after = s.GetStatistics();
        Assert.Equal(0, after.TasksExecuted);
        Assert.Equal(0, after.Steals);
        Assert.True(after.Elapsed < before.Elapsed);
    }

    /// <summary>Reaches the protected members of a TaskScheduler through a derived helper's static access.</summary>
    private sealed class SchedulerHook(TaskScheduler scheduler)
    {
        private static readonly System.Reflection.MethodInfo QueueMethod = typeof(TaskScheduler).GetMethod("QueueTask", System.Reflection.BindingFlags.Instance | System.Reflection.BindingFlags.NonPublic)!;
        private static readonly System.Reflection.MethodInfo InlineMethod = typeof(TaskScheduler).GetMethod("TryExecuteTaskInline", System.Reflection.BindingFlags.Instance | System.Reflection.BindingFlags.NonPublic)!;
        private static readonly System.Reflection.MethodInfo ScheduledMethod = typeof(TaskScheduler).GetMethod("GetScheduledTasks", System.Reflection.BindingFlags.Instance | System.Reflection.BindingFlags.NonPublic)!;

        public void Queue(Task task) => Unwrap(() => QueueMethod.Invoke(scheduler, [task]));

        public void Inline(Task task) => Unwrap(() => InlineMethod.Invoke(scheduler, [task, false]));

        public IEnumerable<Task>? Scheduled() => (IEnumerable<Task>?)ScheduledMethod.Invoke(scheduler, null);

        private static void Unwrap(Action a)
        {
            try
            {
                a();
            }
            catch (System.Reflection.TargetInvocationException e) when (e.InnerException is not null)
            {
                System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(e.InnerException);
            }
        }
    }
}
