namespace DivCon.JobServer;

/// <summary>The service's computations: deterministic CPU work whose answers can be checked.</summary>
internal static class Work
{
    /// <summary>One priced item: a chain of 20,000 integer steps (about 40 µs of one core).</summary>
    public static long Price(int request, int item)
    {
        ulong x = ((ulong)request << 32) ^ (ulong)item ^ 0x9E3779B97F4A7C15UL;
        for (int k = 0; k < 20_000; k++)
        {
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
            x ^= x >> 29;
        }

        return (long)(x & 0xFFFF);
    }

    /// <summary>One batch item: a few integer steps (tens of nanoseconds), so that 50 M of them make a round of seconds.</summary>
    public static long BatchItem(int i)
    {
        ulong x = (ulong)i ^ 0x9E3779B97F4A7C15UL;
        for (int k = 0; k < 16; k++)
        {
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        }

        return (long)(x & 1);
    }

    /// <summary>The sum of the first <paramref name="items"/> prices of a request, computed sequentially.</summary>
    public static long ExpectedQuote(int request, int items)
    {
        long total = 0;
        for (int i = 0; i < items; i++)
        {
            total += Price(request, i);
        }

        return total;
    }

    /// <summary>
    /// The batch without yielding: rounds of a Parallel.For inside this one task until <paramref name="stop"/>; returns
    /// the items priced. Its worker cannot move while it runs (moves happen between tasks): programs the policy gives
    /// that worker are served by compensating workers instead (BlockingMonitor, owed not served).
    /// </summary>
    public static long BatchUntil(TaskScheduler scheduler, CancellationToken stop)
    {
        long steps = 0;
        var options = new ParallelOptions { TaskScheduler = scheduler };
        while (!stop.IsCancellationRequested)
        {
            Parallel.For(0, 64, options, i => Price(-1, i));
            steps += 64;
        }

        return steps;
    }

    /// <summary>
    /// The batch: rounds of a Parallel.For on <paramref name="scheduler"/> until <paramref name="stop"/>, with an await
    /// between rounds; returns the items priced. The await matters: DivCon moves a worker between programs only between
    /// tasks, so a batch that looped inside one task would keep its worker however the policy divides the cores.
    /// </summary>
    public static async Task<long> BatchUntilAsync(TaskScheduler scheduler, CancellationToken stop)
    {
        long steps = 0;
        var options = new ParallelOptions { TaskScheduler = scheduler };
        while (!stop.IsCancellationRequested)
        {
            Parallel.For(0, 64, options, i => Price(-1, i));
            steps += 64;
            await Task.Yield(); // ends this task: the next round is a new task on the batch's scheduler
        }

        return steps;
    }
}
