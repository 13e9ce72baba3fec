using DivCon.Scheduling;

namespace DivCon.Tests.Scheduling;

/// <summary>A scheduler under test plus what the contract tests need to know about it.</summary>
public interface ISchedulerFixture : IDisposable
{
    TaskScheduler Scheduler { get; }

    int Workers { get; }

    /// <summary>Successful steals so far.</summary>
    long Steals { get; }

    /// <summary>True when <paramref name="thread"/> is one of the scheduler's (or the pool's) workers.</summary>
    bool IsWorker(Thread thread);
}

internal sealed class WorkStealingFixture(WorkStealingTaskScheduler scheduler) : ISchedulerFixture
{
    public WorkStealingTaskScheduler Inner { get; } = scheduler;

    public TaskScheduler Scheduler => Inner;

    public int Workers => Inner.WorkerCount;

    public long Steals => Inner.GetStatistics().Steals;

    public bool IsWorker(Thread thread) => Inner.Pool.Workers.Any(w => ReferenceEquals(w.Thread, thread));

    public void Dispose()
    {
        // Bounded: a hang in Dispose fails the test instead of blocking the run.
        Assert.True(Task.Run(Inner.Dispose).Wait(TimeSpan.FromSeconds(30)), "Dispose did not return within 30 s.");
    }
}

internal static class Wait
{
    public static readonly TimeSpan Long = TimeSpan.FromSeconds(60);

    /// <summary>Waits for <paramref name="task"/> with a timeout; a hang fails the test.</summary>
    public static void For(Task task, TimeSpan? timeout = null, string? what = null)
    {
        TimeSpan limit = timeout ?? Long;
        Assert.True(task.Wait(limit), $"{what ?? "The task"} did not finish within {limit.TotalSeconds} s.");
    }

    /// <summary>
    /// Polls <paramref name="condition"/> until it holds (bounded). For counters a worker updates just after a task
    /// completes: the task's completion is visible to the test a moment before the worker's bookkeeping.
    /// </summary>
    public static void Until(Func<bool> condition, string what, TimeSpan? timeout = null)
    {
        TimeSpan limit = timeout ?? Long;
        var sw = System.Diagnostics.Stopwatch.StartNew();
        while (!condition())
        {
            Assert.True(sw.Elapsed < limit, $"Timed out after {limit.TotalSeconds} s waiting until {what}.");
            Thread.Sleep(1);
        }
    }

    public static T For<T>(Task<T> task, TimeSpan? timeout = null, string? what = null)
    {
        For((Task)task, timeout, what);
        return task.Result;
    }
}
