using DivCon.Multiprogramming;

namespace DivCon.JobServer;

/// <summary>
/// The request handlers of the service: each request becomes a program of the shared scheduler for as long as it runs
/// (<see cref="MultiProgramScheduler.RunProgramAsync{TResult}"/>), so the scheduler's policy divides the cores among the
/// requests in flight and the batch; nothing here creates a TaskFactory or names a scheduler except in ParallelOptions.
/// </summary>
internal sealed class QuoteService(MultiProgramScheduler scheduler)
{
    private int _served;

    /// <summary>Programs added and removed so far (one per request).</summary>
    public int ProgramsServed => Volatile.Read(ref _served);

    /// <summary>A short request: one Parallel.For, answered as soon as it ends. True when the answer is right.</summary>
    public async Task<bool> HandleQuoteAsync(int id)
    {
        long price = await scheduler.RunProgramAsync($"quote {id}", token =>
        {
            // The job starts on the program's workers, so TaskScheduler.Current is the program's scheduler. Parallel.*
            // must be given it (without ParallelOptions.TaskScheduler it would use the .NET thread pool).
            long total = 0;
            Parallel.For(0, 64, new ParallelOptions { TaskScheduler = TaskScheduler.Current, CancellationToken = token },
                () => 0L, (i, _, local) => local + Work.Price(id, i), local => Interlocked.Add(ref total, local));
            return Task.FromResult(total);
        }, scalability: 1.8);
        Interlocked.Increment(ref _served);
        return price == Work.ExpectedQuote(id, 64);
    }

    /// <summary>A report: an async method awaiting "I/O" between Parallel.ForEach chunks. True when the answer is right.</summary>
    public async Task<bool> HandleReportAsync(int id)
    {
        long total = await scheduler.RunProgramAsync($"report {id}", async token =>
        {
            var options = new ParallelOptions { TaskScheduler = TaskScheduler.Current, CancellationToken = token };
            long sum = 0;
            for (int chunk = 0; chunk < 4; chunk++)
            {
                await Task.Delay(5, token); // a database call; the continuation comes back to this program's workers
                int c = chunk;
                Parallel.ForEach(Enumerable.Range(0, 32), options, () => 0L, (i, _, local) => local + Work.Price(id, (c * 32) + i), local => Interlocked.Add(ref sum, local));
            }

            return sum;
        }, scalability: 1.6);
        Interlocked.Increment(ref _served);
        return total == Work.ExpectedQuote(id, 128);
    }
}
