using System.Diagnostics;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Scheduling;

/// <summary>
/// Issue 14's defects of the standalone scheduler, each reproduced: Dispose while a task still runs (2), await
/// continuations after Dispose (3), a global queue starved by a self-requeuing chain (5), Thread.Interrupt on a parked
/// worker (6). Every wait is bounded.
/// </summary>
public sealed class PoolTrustTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    private static Task<T> Start<T>(TaskScheduler scheduler, Func<T> body)
        => Task.Factory.StartNew(body, CancellationToken.None, TaskCreationOptions.None, scheduler);

    /// <summary>
    /// Defect 2: a parent running when Dispose begins queues a child to its own deque and waits for a thief to start
    /// it. The other worker must not exit while the parent runs (exit only when closed and idle).
    /// </summary>
    [Fact]
    public void Dispose_while_a_parent_waits_for_its_child_keeps_the_thief_until_the_parent_is_done()
    {
        var scheduler = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { WorkerCount = 2, CompensateBlocking = false });
        using var go = new ManualResetEventSlim(false);
        using var started = new ManualResetEventSlim(false);
        Task<bool> parent = Start(scheduler, () =>
        {
            started.Set();
            go.Wait(Timeout);
            using var childStarted = new ManualResetEventSlim(false);
            Task child = Task.Factory.StartNew(childStarted.Set); // TaskScheduler.Current: this worker's own deque
            bool stolen = childStarted.Wait(Timeout); // only a thief can start it while we wait
            return stolen;
        });
        Assert.True(started.Wait(Timeout), "the parent never started");
        Task disposing = Task.Run(scheduler.Dispose);
        Wait.Until(() => scheduler.Pool.IsShuttingDown, "Dispose has begun");
        Thread.Sleep(100); // the other worker sees the shutdown with nothing queued
        go.Set();
        Assert.True(parent.Wait(Timeout + Timeout), "the parent did not finish"); // it waits up to Timeout for its child
        Assert.True(parent.Result, "no worker was left to steal the child of a task running when Dispose began");
        Assert.True(disposing.Wait(Timeout), "Dispose did not return");
    }

    /// <summary>
    /// Defect 3: an await continuation that comes back after Dispose (from a timer thread) is not lost: it runs, as a
    /// late task, and is counted.
    /// </summary>
    [Fact]
    public void An_await_continuation_after_Dispose_still_runs_and_is_counted()
    {
        var scheduler = new WorkStealingTaskScheduler(2);
        Task<TaskScheduler> op = LateContinuation.Start(scheduler, out Action resume);
        Assert.True(Task.Run(scheduler.Dispose).Wait(Timeout), "Dispose did not return");
        resume();
        Assert.True(op.Wait(Timeout), $"the continuation after Dispose was lost (status {op.Status})");
        Assert.Same(scheduler, op.Result);
        Assert.Equal(1, scheduler.LateTasks);
    }

    /// <summary>
    /// Defect 5: a task that keeps queuing one successor on the only worker must not starve a task queued from outside
    /// (the worker looks at the global queue every a fixed number of local tasks).
    /// </summary>
    [Fact]
    public void A_self_requeuing_chain_does_not_starve_the_global_queue()
    {
        var scheduler = new WorkStealingTaskScheduler(1);
        using var schedulerDisposal = BoundedDisposal.Of(scheduler);
        int stop = 0;
        long links = 0;
        var deadline = Stopwatch.StartNew();
        void Link()
        {
            if (Volatile.Read(ref stop) == 0 && deadline.Elapsed < Timeout + Timeout) // longer than the wait below
            {
                Interlocked.Increment(ref links);
                Task.Factory.StartNew(Link); // TaskScheduler.Current: the worker's own deque
            }
        }

        Task.Factory.StartNew(Link, CancellationToken.None, TaskCreationOptions.None, scheduler);
        Wait.Until(() => Interlocked.Read(ref links) > 1000, "the chain runs");
        Task outside = Task.Factory.StartNew(() => Volatile.Write(ref stop, 1), CancellationToken.None, TaskCreationOptions.None, scheduler);
        bool ran = outside.Wait(Timeout);
        Volatile.Write(ref stop, 1);
        Assert.True(ran, $"a task queued from outside never ran while a chain of {Interlocked.Read(ref links)} local tasks ran");
    }

    /// <summary>
    /// Defect 6: Thread.Interrupt on a parked worker (a user holding the thread) does not kill it. A round counts only
    /// when the worker took the interrupt itself: interrupted while blocked in its park, and the interrupt no longer
    /// pending when our next task runs on it (a pending one would fire in that task, or in the worker's next park after
    /// the test). A fixed sleep after the interrupt passed on a loaded machine with the interrupt still pending.
    /// </summary>
    [Fact]
    public void Interrupting_a_parked_worker_leaves_it_serving()
    {
        var scheduler = new WorkStealingTaskScheduler(1);
        using var schedulerDisposal = BoundedDisposal.Of(scheduler);
        Thread worker = Wait.For(Start(scheduler, () => Thread.CurrentThread));
        int conclusive = 0;
        for (int round = 0; round < 12 && conclusive == 0; round++)
        {
            // Blocked in the park's wait (WaitSleepJoin while parked: the only blocking call past the re-check), so the
            // interrupt wakes it there instead of waiting for its next blocking call.
            Wait.Until(
                () => scheduler.Queues.WakeState.Parked == 1 && (worker.ThreadState & System.Threading.ThreadState.WaitSleepJoin) != 0,
                "the worker blocks in its park");
            worker.Interrupt();

            // Time for the worker to take the interrupt before our task wakes it (1 ms, doubling): a round where it did
            // not is inconclusive, never a pass.
            Thread.Sleep(1 << round);
            Task<bool> stillPending = Start(scheduler, InterruptIsPending);
            Wait.Until(() => stillPending.IsCompleted || !worker.IsAlive, "the interrupted worker runs a task or dies");
            Assert.True(worker.IsAlive, "the interrupted worker died");
            conclusive += Wait.For(stillPending) ? 0 : 1;
        }

        Assert.True(conclusive > 0, "in 12 rounds the worker never took the interrupt in its park before the next task ran");
        Assert.Equal(7, Wait.For(Start(scheduler, () => 7)));
        Assert.Equal(worker, Wait.For(Start(scheduler, () => Thread.CurrentThread)));
    }

    // True when an interrupt of the calling thread is pending: Thread.Sleep(0) throws it (and so consumes it).
    private static bool InterruptIsPending()
    {
        try
        {
            Thread.Sleep(0);
            return false;
        }
        catch (ThreadInterruptedException)
        {
            return true;
        }
    }

    /// <summary>The probe above: Thread.Sleep(0) throws an interrupt pending on the thread (and clears it).</summary>
    [Fact]
    public void A_pending_interrupt_is_seen_by_the_probe_and_cleared()
    {
        Task<(bool First, bool Second)> probe = Task.Factory.StartNew(
            () =>
            {
                Thread.CurrentThread.Interrupt();
                return (InterruptIsPending(), InterruptIsPending());
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default);
        Assert.Equal((true, false), Wait.For(probe, Timeout));
    }
}

/// <summary>
/// An async method on a scheduler that is suspended in an await when Start returns. The await ends when the test calls
/// <c>resume</c> (from a thread-pool thread, as a timer's callback would), so the continuation comes back after whatever
/// the test did first (a Dispose, a RemoveProgram) however long that took: an earlier form awaited a 200 ms delay,
/// which a loaded machine let expire before the Dispose had begun (the continuation then ran as an ordinary task).
/// </summary>
internal static class LateContinuation
{
    /// <summary>Its result is TaskScheduler.Current where the continuation ran.</summary>
    public static Task<TaskScheduler> Start(TaskScheduler scheduler, out Action resume)
    {
        using var suspended = new ManualResetEventSlim(false);
        var awaited = new TaskCompletionSource();
        Task<TaskScheduler> op = Task.Factory.StartNew(
            async () =>
            {
                suspended.Set();
                await awaited.Task;
                return TaskScheduler.Current;
            },
            CancellationToken.None,
            TaskCreationOptions.None,
            scheduler).Unwrap();
        Assert.True(suspended.Wait(TimeSpan.FromSeconds(30)), "the async method did not start");
        resume = () => Assert.True(Task.Run(awaited.SetResult).Wait(TimeSpan.FromSeconds(30)), "the await could not be resumed");
        return op;
    }
}
