using System.Diagnostics;
using System.Globalization;
using DivCon.Multiprogramming;
using DivCon.Scheduling;

namespace DivCon.JobServer;

/// <summary>
/// Issue 20's three-job scenario, written with DivCon's loop helpers: a batch (rounds of a 50 M-item parallel loop), an
/// async report job (awaits "I/O" between parallel chunks), and short request jobs measured for latency, each a program
/// added and removed at run time (<see cref="MultiProgramScheduler.RunProgramAsync(string, Func{CancellationToken, Task}, double, CancellationToken)"/>),
/// on the default policy. For each repartitioning interval it prints the requests' latency beside their time alone (the
/// same requests, one after another, on an otherwise empty scheduler), and how long a program with queued tasks was
/// short of the cores it was assigned: sampled every millisecond (served &lt; assigned), in wall time and on a processor
/// (without the time the worker it was owed waited for one: <see cref="ShortOfCoresSampler"/>), and from the timeline
/// (the longest move that waited on a running task, <see cref="AllocationTimeline.GetPendingMoves"/>).
/// </summary>
internal static class ThreeJobs
{
    private const int BatchItems = 50_000_000;
    private const int RequestItems = 64;

    public static async Task<int> RunAsync(int requests, IReadOnlyList<TimeSpan> intervals, bool plain, bool trace, TimeSpan newcomerQuantum)
    {
        string shortJobs = newcomerQuantum > TimeSpan.Zero
            ? string.Create(CultureInfo.InvariantCulture, $"short jobs first below {newcomerQuantum.TotalMilliseconds:0.###} ms of service")
            : "short jobs first off";
        Console.WriteLine($"three jobs: a batch (rounds of {BatchItems / 1_000_000} M items), an async report, {requests} requests; " +
            $"{(plain ? "plain Parallel.For / Parallel.ForEachAsync" : "DivCon's loop helpers (ParallelForAsync)")}; default policy, {shortJobs}");
        Console.WriteLine($"{"interval",9} {"alone p50",10} {"alone p99",10} {"p50 ms",8} {"p95 ms",8} {"p99 ms",8} {"p99/alone p50",14} {"longest short ms",17} {"on CPU ms",13} {"longest pending ms",19} {"demand",7}");
        bool allRight = true;
        foreach (TimeSpan interval in intervals)
        {
            allRight &= await RunOneAsync(requests, interval, plain, trace, newcomerQuantum);
        }

        Console.WriteLine(allRight ? "every answer checked: right" : "WRONG ANSWERS");
        return allRight ? 0 : 1;
    }

    private static async Task<bool> RunOneAsync(int requests, TimeSpan interval, bool plain, bool trace, TimeSpan newcomerQuantum)
    {
        using var scheduler = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            BestEffortPinning = true,
            RepartitionInterval = interval,
            NewcomerQuantum = newcomerQuantum,
        });
        bool right = true;

        // Time alone: the same requests one after another, nothing else on the scheduler (a few warm-up runs first).
        var alone = new List<double>();
        for (int i = -5; i < Math.Min(requests, 50); i++)
        {
            (double ms, bool ok) = await RequestAsync(scheduler, i, plain);
            right &= ok;
            if (i >= 0)
            {
                alone.Add(ms);
            }
        }

        using var stop = new CancellationTokenSource();
        long batchRounds = 0, reportRounds = 0, batchItems = 0;
        Task batch = scheduler.RunProgramAsync("batch", async token =>
        {
            ProgramHandle me = Current(scheduler);
            while (!stop.IsCancellationRequested)
            {
                long sum = 0;
                if (plain)
                {
                    Parallel.For(0, BatchItems, new ParallelOptions { TaskScheduler = me.Scheduler }, () => (Sum: 0L, Count: 0L),
                        (i, _, local) => (local.Sum + Work.BatchItem(i), local.Count + 1),
                        local =>
                        {
                            Interlocked.Add(ref sum, local.Sum);
                            Interlocked.Add(ref batchItems, local.Count);
                        });
                    await Task.Yield();
                }
                else
                {
                    await me.ParallelForAsync(0, BatchItems, (from, to) =>
                    {
                        long local = 0;
                        for (int i = from; i < to; i++)
                        {
                            local += Work.BatchItem(i);
                        }

                        Interlocked.Add(ref sum, local);
                        Interlocked.Add(ref batchItems, to - from);
                    });
                }

                Interlocked.Increment(ref batchRounds);
            }
        }, scalability: 1.9);
        Task report = scheduler.RunProgramAsync("report", async token =>
        {
            ProgramHandle me = Current(scheduler);
            while (!stop.IsCancellationRequested)
            {
                await Task.Delay(5, CancellationToken.None); // a database call; the continuation comes back to the program
                long sum = 0;
                if (plain)
                {
                    await Parallel.ForEachAsync(Enumerable.Range(0, 32), new ParallelOptions { TaskScheduler = me.Scheduler }, (i, _) =>
                    {
                        Interlocked.Add(ref sum, Work.Price(-2, i));
                        return ValueTask.CompletedTask;
                    });
                }
                else
                {
                    await me.ParallelForAsync(0, 32, i => Interlocked.Add(ref sum, Work.Price(-2, i)));
                }

                if (sum != Work.ExpectedQuote(-2, 32))
                {
                    throw new InvalidOperationException("The report's sum is wrong.");
                }

                Interlocked.Increment(ref reportRounds);
            }
        }, scalability: 1.6);

        // The sampler: every millisecond, each program with queued tasks that is served by fewer workers than assigned,
        // in wall time and without the time its owed worker waited for a processor (ShortOfCoresSampler).
        var sampler = new ShortOfCoresSampler(scheduler, stop.Token, trace);
        sampler.Start();

        await Task.Delay(200); // the batch and the report are running
        long phaseStart = Stopwatch.GetTimestamp();
        long batchItemsAtStart = Interlocked.Read(ref batchItems);
        var random = new Random(42);
        var mixed = new List<double>();
        for (int i = 0; i < requests; i++)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(-Math.Log(1 - random.NextDouble()) * 10));
            (double ms, bool ok) = await RequestAsync(scheduler, 1000 + i, plain);
            right &= ok;
            mixed.Add(ms);
        }

        double phaseSeconds = Stopwatch.GetElapsedTime(phaseStart).TotalSeconds;
        double batchPerSecond = (Interlocked.Read(ref batchItems) - batchItemsAtStart) / 1e6 / phaseSeconds;
        await stop.CancelAsync();
        sampler.Join();
        await Task.WhenAll(batch, report).WaitAsync(TimeSpan.FromMinutes(2));
        double longestPendingMs = scheduler.Timeline.GetPendingMoves().Select(m => m.Age.TotalMilliseconds).DefaultIfEmpty(0).Max();
        ShortOfCoresSampler.Result wall = sampler.LongestWall;
        ShortOfCoresSampler.Result? onCpu = sampler.LongestOnCpu;

        double[] a = [.. alone.Order()];
        double[] m = [.. mixed.Order()];
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{interval.TotalMilliseconds,7:0}ms {P(a, 0.5),10:F2} {P(a, 0.99),10:F2} {P(m, 0.5),8:F2} {P(m, 0.95),8:F2} {P(m, 0.99),8:F2} {P(m, 0.99) / P(a, 0.5),14:F2} {wall.WallMs,17:F1} {(onCpu is null ? "n/a" : onCpu.OnCpuMs.ToString("F1", CultureInfo.InvariantCulture)),13} {longestPendingMs,19:F1} {scheduler.DemandRepartitions,7}"));
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"          (longest short: {Describe(wall, onCpu is not null)}{(onCpu is null ? "" : $"; longest on CPU: {Describe(onCpu, true)}")}; sampler's longest gap {sampler.LongestGapMs:F1} ms)"));
        Console.WriteLine($"          (requests phase {phaseSeconds:F1} s, batch {batchPerSecond:F1} M items/s in it, report rounds {reportRounds}, worker moves {scheduler.Timeline.Recorded})");
        if (trace)
        {
            PrintSamples("longest short", wall);
            if (onCpu is not null && !ReferenceEquals(onCpu, wall))
            {
                PrintSamples("longest on CPU", onCpu);
            }
        }

        return right && batchRounds + reportRounds > 0;
    }

    private static void PrintSamples(string what, ShortOfCoresSampler.Result r)
    {
        Console.WriteLine($"          {what}, {r.Program}: per worker, the program it is assigned to, its home, the one it serves; thread state and CPU gained");
        foreach (string line in r.Samples)
        {
            Console.WriteLine(line);
        }
    }

    // One request: a program added for it, a parallel loop of priced items, removed when done. Milliseconds end to end.
    private static async Task<(double Ms, bool Ok)> RequestAsync(MultiProgramScheduler scheduler, int id, bool plain)
    {
        long start = Stopwatch.GetTimestamp();
        long total = await scheduler.RunProgramAsync($"request {id}", async token =>
        {
            long sum = 0;
            if (plain)
            {
                Parallel.For(0, RequestItems, new ParallelOptions { TaskScheduler = TaskScheduler.Current, CancellationToken = token },
                    () => 0L, (i, _, local) => local + Work.Price(id, i), local => Interlocked.Add(ref sum, local));
            }
            else
            {
                await Current(scheduler).ParallelForAsync(0, RequestItems, i => Interlocked.Add(ref sum, Work.Price(id, i)), new ChunkedLoopOptions { CancellationToken = token });
            }

            return sum;
        }, scalability: 1.8);
        return (Stopwatch.GetElapsedTime(start).TotalMilliseconds, total == Work.ExpectedQuote(id, RequestItems));
    }

    // The program whose job is running on this thread (RunProgramAsync runs it with the program's scheduler current).
    private static ProgramHandle Current(MultiProgramScheduler scheduler)
        => scheduler.Programs.First(p => ReferenceEquals(p.Scheduler, TaskScheduler.Current));

    private static string Describe(ShortOfCoresSampler.Result r, bool cpuMeasured) => r.Program is null ? "none"
        : string.Create(CultureInfo.InvariantCulture,
            $"{r.Program}, {r.WallMs:F1} ms{(cpuMeasured ? $" ({r.OnCpuMs:F1} on a processor, {r.WaitMs:F1} waiting for one, {r.UnseenMs:F1} unseen)" : "")}, {r.Cause}");

    private static double P(double[] sorted, double p) => sorted.Length == 0 ? double.NaN : sorted[(int)Math.Min(sorted.Length - 1, Math.Ceiling(p * sorted.Length) - 1)];

    /// <summary>Parses <c>20ms,100ms</c>-style interval lists; null when one is not a positive number of milliseconds.</summary>
    /// <summary>A quantum in milliseconds ("8ms" or "8"), 0 to 1000; null when invalid.</summary>
    public static TimeSpan? ParseQuantum(string text)
    {
        string number = text.EndsWith("ms", StringComparison.Ordinal) ? text[..^2] : text;
        return double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out double ms) && ms >= 0 && ms <= 1000
            ? TimeSpan.FromMilliseconds(ms)
            : null;
    }

    public static IReadOnlyList<TimeSpan>? ParseIntervals(string text)
    {
        var intervals = new List<TimeSpan>();
        foreach (string part in text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            string number = part.EndsWith("ms", StringComparison.Ordinal) ? part[..^2] : part;
            if (!double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out double ms) || !(ms >= 1))
            {
                return null;
            }

            intervals.Add(TimeSpan.FromMilliseconds(ms));
        }

        return intervals.Count > 0 ? intervals : null;
    }
}
