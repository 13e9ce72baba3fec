using System.Diagnostics;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Scheduling;

/// <summary>
/// The no-lost-wake-up protocol with searching workers and the wake token (WorkQueueSet.cs header): producers wake
/// nobody while a worker searches or a wake is pending, so each test makes a task that only a parked or searching
/// worker can run, at random moments of the other workers' spin / park cycle, and waits for it with a timeout. A lost
/// wake-up (a task left while every worker that could run it stays blocked) fails the wait instead of hanging.
/// </summary>
public sealed class WakeUpProtocolTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    [Theory]
    [InlineData(1, 300)]
    [InlineData(2, 300)]
    [InlineData(4, 200)]
    public void Tasks_trickled_in_from_outside_all_run(int workers, int tasks)
        => TrickleFromOutside(workers, tasks, seed: workers);

    [StressTheory]
    [Trait("Category", "Stress")]
    [InlineData(1, 20_000)]
    [InlineData(2, 20_000)]
    [InlineData(8, 10_000)]
    public void Stress_tasks_trickled_in_from_outside_all_run(int workers, int tasks)
        => TrickleFromOutside(workers, tasks, seed: 100 + workers);

    /// <summary>
    /// A running task queues a child to its own deque and then blocks until the child has started: only another worker
    /// (parked, searching or about to park) can run it, by stealing. A missed wake-up leaves the parent blocked.
    /// </summary>
    [Fact]
    public void A_child_queued_by_a_blocked_parent_is_stolen_by_a_parked_or_searching_worker()
        => ChildNeedsAThief(rounds: 300, seed: 7);

    [StressFact]
    [Trait("Category", "Stress")]
    public void Stress_a_child_queued_by_a_blocked_parent_is_stolen_by_a_parked_or_searching_worker()
        => ChildNeedsAThief(rounds: 20_000, seed: 8);

    /// <summary>
    /// Three workers, one blocked for the whole test. Each round queues a task that blocks until a second task has
    /// started, then that second task, at random moments: often while one free worker is still searching and the
    /// other has parked. The searcher takes the first task and blocks; only the parked worker can run the second, so
    /// a searcher that stops searching must wake it (WorkQueueSet.cs header, obligation 2).
    /// </summary>
    [Fact]
    public void A_searcher_that_takes_a_blocking_task_hands_the_next_task_to_a_parked_worker()
        => SearcherHandsOver(rounds: 400, seed: 5);

    [StressFact]
    [Trait("Category", "Stress")]
    public void Stress_a_searcher_that_takes_a_blocking_task_hands_the_next_task_to_a_parked_worker()
        => SearcherHandsOver(rounds: 20_000, seed: 6);

    /// <summary>
    /// One worker blocks in a long task; tasks queued from outside meanwhile must run on the other one (the parked
    /// worker is woken; a searching one finds them), never wait for the blocked one.
    /// </summary>
    [Fact]
    public void Work_queued_while_one_worker_is_blocked_runs_on_the_other()
    {
        var scheduler = new WorkStealingTaskScheduler(2);
        using var schedulerDisposal = BoundedDisposal.Of(scheduler);
        var random = new Random(11);
        for (int round = 0; round < 200; round++)
        {
            using var release = new ManualResetEventSlim(false);
            using var blockerStarted = new ManualResetEventSlim(false);
            Task blocker = Task.Factory.StartNew(
                () =>
                {
                    blockerStarted.Set();
                    release.Wait(Timeout);
                },
                CancellationToken.None,
                TaskCreationOptions.None,
                scheduler);
            Assert.True(blockerStarted.Wait(Timeout), $"round {round}: the blocker never started");
            Pause(random);
            Task other = Task.Factory.StartNew(() => { }, CancellationToken.None, TaskCreationOptions.None, scheduler);
            bool ran = other.Wait(Timeout);
            release.Set();
            Assert.True(ran, $"round {round}: a task queued while one worker was blocked did not run on the other worker");
            Assert.True(blocker.Wait(Timeout));
        }
    }

    /// <summary>
    /// After any burst of work the searching count and the wake token come back to zero and every worker parks: a
    /// leaked count or token would stop producers from ever waking a worker again.
    /// </summary>
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(4)]
    public void Idle_workers_leave_no_searching_count_or_wake_token_behind(int workers)
    {
        var scheduler = new WorkStealingTaskScheduler(workers);
        using var schedulerDisposal = BoundedDisposal.Of(scheduler);
        var random = new Random(workers);
        for (int round = 0; round < 20; round++)
        {
            int n = random.Next(1, 200);
            Task[] tasks = Enumerable.Range(0, n)
                .Select(_ => Task.Factory.StartNew(() => Thread.SpinWait(random.Next(0, 2000)), CancellationToken.None, TaskCreationOptions.None, scheduler))
                .ToArray();
            Assert.True(Task.WaitAll(tasks, Timeout));

            var sw = Stopwatch.StartNew();
            (long searching, long pending, long parked) state;
            while ((state = scheduler.Queues.WakeState) != (0, 0, workers) && sw.Elapsed < Timeout)
            {
                Thread.Sleep(1);
            }

            Assert.Equal((0L, 0L, (long)workers), state);

            // And the next task still wakes a worker.
            Assert.True(Task.Factory.StartNew(() => { }, CancellationToken.None, TaskCreationOptions.None, scheduler).Wait(Timeout));
        }
    }

    private static void TrickleFromOutside(int workers, int tasks, int seed)
    {
        var scheduler = new WorkStealingTaskScheduler(workers);
        using var schedulerDisposal = BoundedDisposal.Of(scheduler);
        var random = new Random(seed);
        int ran = 0;
        for (int i = 0; i < tasks; i++)
        {
            Task task = Task.Factory.StartNew(() => Interlocked.Increment(ref ran), CancellationToken.None, TaskCreationOptions.None, scheduler);
            Pause(random);
            if (random.Next(4) == 0)
            {
                // Wait for this one: the workers go back to searching and parking before the next arrives.
                Assert.True(task.Wait(Timeout), $"task {i} was not run within {Timeout.TotalSeconds} s: a lost wake-up");
            }
        }

        var sw = Stopwatch.StartNew();
        while (Volatile.Read(ref ran) != tasks && sw.Elapsed < Timeout)
        {
            Thread.Sleep(1);
        }

        Assert.Equal(tasks, Volatile.Read(ref ran));
    }

    private static void SearcherHandsOver(int rounds, int seed)
    {
        var scheduler = new WorkStealingTaskScheduler(3);
        using var schedulerDisposal = BoundedDisposal.Of(scheduler);
        using var release = new ManualResetEventSlim(false);
        using var blockerStarted = new ManualResetEventSlim(false);
        Task blocker = Task.Factory.StartNew(
            () =>
            {
                blockerStarted.Set();
                release.Wait(Timeout * 10);
            },
            CancellationToken.None,
            TaskCreationOptions.None,
            scheduler);
        try
        {
            Assert.True(blockerStarted.Wait(Timeout));
            var random = new Random(seed);
            for (int round = 0; round < rounds; round++)
            {
                using var secondStarted = new ManualResetEventSlim(false);
                Task<bool> first = Task.Factory.StartNew(() => secondStarted.Wait(Timeout), CancellationToken.None, TaskCreationOptions.None, scheduler);
                Task second = Task.Factory.StartNew(secondStarted.Set, CancellationToken.None, TaskCreationOptions.None, scheduler);
                Assert.True(first.Wait(Timeout + Timeout) && second.Wait(Timeout), $"round {round}: did not finish");
                Assert.True(first.Result, $"round {round}: the second task waited while a worker stayed parked (lost wake-up)");
                Pause(random);
            }
        }
        finally
        {
            release.Set();
            Assert.True(blocker.Wait(Timeout));
        }
    }

    private static void ChildNeedsAThief(int rounds, int seed)
    {
        var scheduler = new WorkStealingTaskScheduler(2);
        using var schedulerDisposal = BoundedDisposal.Of(scheduler);
        var random = new Random(seed);
        for (int round = 0; round < rounds; round++)
        {
            int pause = random.Next(0, 6);
            Task<bool> parent = Task.Factory.StartNew(
                () =>
                {
                    // Let the other worker reach a random point of its spin / park cycle first.
                    PauseKind(pause);
                    using var childStarted = new ManualResetEventSlim(false);
                    Task child = Task.Factory.StartNew(childStarted.Set, CancellationToken.None, TaskCreationOptions.None, scheduler);
                    return childStarted.Wait(Timeout) && child.Wait(Timeout);
                },
                CancellationToken.None,
                TaskCreationOptions.None,
                scheduler);
            Assert.True(parent.Wait(Timeout + Timeout), $"round {round}: the parent did not finish");
            Assert.True(parent.Result, $"round {round}: the child on the blocked parent's deque was never stolen (lost wake-up)");
        }
    }

    private static void Pause(Random random) => PauseKind(random.Next(0, 6));

    private static void PauseKind(int kind)
    {
        switch (kind)
        {
            case 0:
                break;
            case 1:
                Thread.SpinWait(50);
                break;
            case 2:
                Thread.SpinWait(2000);
                break;
            case 3:
                Thread.Yield();
                break;
            case 4:
                Thread.Sleep(0);
                break;
            default:
                Thread.Sleep(1); // long enough for idle workers to park
                break;
        }
    }
}
