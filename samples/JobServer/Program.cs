// DivCon in a service's shape. A console loop stands in for a web server: "requests" arrive at random times on the
// thread pool, as ASP.NET would call its handlers, and each handler submits its parallel work to one shared
// MultiProgramScheduler:
//   - a quote request is short and latency-sensitive: a Parallel.For, run as its own program that is added when the
//     request arrives and removed when it is answered (RunProgramAsync);
//   - a report request is an async method that awaits (standing in for I/O) between Parallel.ForEach chunks; every
//     continuation stays on its program's workers;
//   - a nightly batch runs the whole time as a long-lived program (ProgramHandle.Run), yielding between rounds so that
//     its workers can move, and is removed when the service stops (await using); with --sync-batch it loops inside
//     one task instead, and programs owed its workers get compensating workers after CompensationDelay.
// It prints each request kind's latency percentiles and how the cores were divided, and exits with 0 when every
// result was right. `-- 200 --three-jobs` runs issue 20's three-job scenario instead (ThreeJobs.cs).
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using DivCon.JobServer;
using DivCon.Multiprogramming;
using DivCon.Partitioning;

CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
int requests = args.Length > 0 && int.TryParse(args[0], CultureInfo.InvariantCulture, out int n) && n > 0 ? n : 120;

// --three-jobs [--intervals 20ms,100ms] [--plain] [--trace] [--newcomer-quantum 8ms]: issue 20's three-job scenario with
// DivCon's loop helpers (or, with --plain, with Parallel.For / Parallel.ForEachAsync), on the default policy, at each
// repartitioning interval; --trace prints the samples of the longest stretch a program was short of its cores;
// --newcomer-quantum sets MultiProgramSchedulerOptions.NewcomerQuantum (short jobs first; 0 turns it off).
if (args.Contains("--three-jobs"))
{
    int at = Array.IndexOf(args, "--intervals");
    IReadOnlyList<TimeSpan>? intervals = ThreeJobs.ParseIntervals(at >= 0 && at + 1 < args.Length ? args[at + 1] : "20ms,100ms");
    int q = Array.IndexOf(args, "--newcomer-quantum");
    TimeSpan? quantum = q < 0 ? MultiProgramSchedulerOptions.DefaultNewcomerQuantum : q + 1 < args.Length ? ThreeJobs.ParseQuantum(args[q + 1]) : null;
    bool valid = true;
    if (intervals is null)
    {
        Console.Error.WriteLine("--intervals: give positive milliseconds, comma-separated, e.g. 20ms,100ms.");
        valid = false;
    }

    if (quantum is null)
    {
        Console.Error.WriteLine("--newcomer-quantum: give milliseconds from 0 (off) to 1000, e.g. 8ms.");
        valid = false;
    }

    if (!valid)
    {
        return 2;
    }

    return await ThreeJobs.RunAsync(
        args.Length > 0 && int.TryParse(args[0], CultureInfo.InvariantCulture, out int r) && r > 0 ? r : 200, intervals!, args.Contains("--plain"), args.Contains("--trace"), quantum!.Value);
}

// --sync-batch: the batch loops Parallel.For inside one task that never returns until the service stops, the shape
// that defeats moving workers between tasks; the scheduler then serves the programs owed its worker with compensating
// workers (README, Guarantees).
bool syncBatch = args.Contains("--sync-batch");

using var scheduler = new MultiProgramScheduler(new MultiProgramSchedulerOptions
{
    Policy = new TaskAvailabilityPolicy(),
    BestEffortPinning = true,
    RepartitionInterval = TimeSpan.FromMilliseconds(20),
});
var service = new QuoteService(scheduler);
Console.WriteLine($"{scheduler.WorkerCount} workers, {(scheduler.IsPinned ? "pinned" : "unpinned: " + scheduler.UnpinnedReason)}; {requests} requests");

// The long-lived batch program: runs until the service stops, then leaves with the handle's DisposeAsync.
using var stopping = new CancellationTokenSource();
await using ProgramHandle batch = scheduler.AddProgram("nightly batch", scalability: 1.9);
Task<long> batchRun = syncBatch
    ? batch.Run(() => Work.BatchUntil(batch.Scheduler, stopping.Token))
    : batch.Run(() => Work.BatchUntilAsync(batch.Scheduler, stopping.Token));

// The "listener": requests arrive with exponential gaps (about 100 per second), each handled on the thread pool.
var latencies = new ConcurrentDictionary<string, ConcurrentBag<double>>();
var handlers = new List<Task<bool>>();
var random = new Random(42);
for (int i = 0; i < requests; i++)
{
    await Task.Delay(TimeSpan.FromMilliseconds(-Math.Log(1 - random.NextDouble()) * 10));
    int id = i;
    bool report = random.NextDouble() < 0.1;
    handlers.Add(Task.Run(async () =>
    {
        long start = Stopwatch.GetTimestamp();
        bool ok = report ? await service.HandleReportAsync(id) : await service.HandleQuoteAsync(id);
        latencies.GetOrAdd(report ? "report" : "quote", _ => []).Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
        return ok;
    }));
}

bool[] answers;
try
{
    answers = await Task.WhenAll(handlers).WaitAsync(TimeSpan.FromMinutes(2));
}
finally
{
    // Also on a timeout: the batch's removal (await using) waits for the batch's task, which ends only when stopped.
    await stopping.CancelAsync();
}

long batchSteps = await batchRun.WaitAsync(TimeSpan.FromMinutes(2));

Console.WriteLine();
Console.WriteLine($"{"request",-8} {"count",6} {"p50 ms",8} {"p95 ms",8} {"p99 ms",8}");
foreach ((string kind, ConcurrentBag<double> values) in latencies.OrderBy(kv => kv.Key))
{
    double[] sorted = [.. values.Order()];
    Console.WriteLine($"{kind,-8} {sorted.Length,6} {Percentile(sorted, 0.50),8:F1} {Percentile(sorted, 0.95),8:F1} {Percentile(sorted, 0.99),8:F1}");
}

Console.WriteLine();
Console.WriteLine($"programs added and removed: {service.ProgramsServed}; still registered: {string.Join(", ", scheduler.Programs.Select(p => p.Name))}");
Console.WriteLine($"worker moves: {scheduler.Timeline.GetMoves().Count}; the batch ran {batchSteps} steps meanwhile");
bool allRight = answers.All(a => a) && batchSteps > 0;
Console.WriteLine(allRight ? "every answer checked: right" : "WRONG ANSWERS");
return allRight ? 0 : 1;

static double Percentile(double[] sorted, double p) => sorted.Length == 0 ? double.NaN : sorted[(int)Math.Min(sorted.Length - 1, Math.Ceiling(p * sorted.Length) - 1)];
