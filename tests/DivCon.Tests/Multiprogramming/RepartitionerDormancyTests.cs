using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Tests.Scheduling;

namespace DivCon.Tests.Multiprogramming;

/// <summary>
/// The repartitioner thread's dormancy (MultiProgramScheduler.RepartitionLoop): no ticks while every program is idle and
/// a tick changed nothing; the next queued task, a scalability set or a demand wakes it. Real threads, bounded waits.
/// </summary>
public sealed class RepartitionerDormancyTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(60);

    private static MultiProgramScheduler Create(IPartitioningPolicy? policy = null)
        => new(new MultiProgramSchedulerOptions
        {
            Policy = policy,
            RepartitionInterval = TimeSpan.FromMilliseconds(5),
            BestEffortPinning = true,
        });

    // Waits (bounded) until the repartition count stays put over a window in which this thread woke 40 times from 5 ms
    // sleeps (the interval): dormant. A ticking repartitioner waits on the same 5 ms timeouts, so a window in which a thread
    // like it got the processor 40 times, and it not once, is one it slept through. The window's length alone
    // (a single 200 ms sleep until 2026-11-24) proved nothing on a loaded machine: a repartitioner not yet scheduled
    // looked dormant. Late wake-ups (a loaded machine) stretch the window but do not weaken it: it is counted in wake-ups.
    private static long WaitUntilDormant(MultiProgramScheduler mps)
    {
        const int WakeUps = 40;
        long seen = -1;
        Wait.Until(
            () =>
            {
                long before = mps.Repartitions;
                for (int i = 0; i < WakeUps; i++)
                {
                    Thread.Sleep(5);
                }

                seen = mps.Repartitions;
                return seen == before;
            },
            "the repartitioner to stop ticking while every program is idle",
            Bound);
        return seen;
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void IdleScheduler_StopsTicking_AndTheNextTaskWakesIt(bool taskAvailability)
    {
        using MultiProgramScheduler mps = Create(taskAvailability ? new TaskAvailabilityPolicy() : null);
        ProgramHandle a = mps.AddProgram("a", 2.0);
        ProgramHandle b = mps.AddProgram("b", 1.0);

        long dormant = WaitUntilDormant(mps);

        // A task wakes it: the task runs and the ticks resume (a decision at once, then every interval while it runs).
        using var release = new ManualResetEventSlim();
        Task running = Task.Factory.StartNew(() => release.Wait(Bound), CancellationToken.None, TaskCreationOptions.None, b.Scheduler);
        Wait.Until(() => mps.Repartitions >= dormant + 3, "ticks after a task was queued to a dormant scheduler", Bound);
        release.Set();
        Wait.For(running, Bound, "the task");

        // Idle again: dormant again.
        dormant = WaitUntilDormant(mps);
        Assert.True(a.Queues.IsIdle() && b.Queues.IsIdle());

        // A scalability set wakes it too (the next decision reads the new value).
        a.Scalability = 5.0;
        Wait.Until(() => mps.Repartitions > dormant, "a decision after a scalability was set", Bound);
    }

    [Fact]
    public void DormantScheduler_ServesTasksQueuedFromManyThreads()
    {
        // The no-lost-wake-up pair: tasks queued while the thread goes dormant are all run, over many dormant spells.
        using MultiProgramScheduler mps = Create(new TaskAvailabilityPolicy());
        ProgramHandle a = mps.AddProgram("a", 2.0);
        ProgramHandle b = mps.AddProgram("b", 1.0);
        for (int round = 0; round < 20; round++)
        {
            Thread.Sleep(round % 4 * 5); // sometimes mid-tick, sometimes after the thread went dormant
            int ran = 0;
            Task[] tasks = [.. Enumerable.Range(0, 8).Select(i => Task.Factory.StartNew(
                () => Interlocked.Increment(ref ran), CancellationToken.None, TaskCreationOptions.None, (i % 2 == 0 ? a : b).Scheduler))];
            Wait.For(Task.WhenAll(tasks), Bound, $"round {round}'s tasks");
            Assert.Equal(8, ran);
        }
    }
}
