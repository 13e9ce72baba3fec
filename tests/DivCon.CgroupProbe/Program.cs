// The cgroup probe: run inside a cgroup (the tests start it through a shell that first moves itself into the group),
// it prints one JSON object with what DivCon and the runtime see there.
//
//   report                      the budget, Environment.ProcessorCount and both schedulers' default worker counts
//   spin --workers N --timeout S  N spinning workers (an explicit count, over the budget when N > budget) until
//                               the cgroup's cpu.stat shows throttling or S seconds pass
//   t1 --program P --size S --runs R [--workers N] [--granularity-cores G]
//                               R timed runs of a sample program on a WorkStealingTaskScheduler (default: the
//                               budget's worker count), granularity fixed for G cores so every run has the same tree
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using DivCon.CgroupProbe;
using DivCon.Multiprogramming;
using DivCon.Samples;
using DivCon.Scheduling;

string mode = args.Length > 0 ? args[0] : "report";
string Option(string name, string fallback)
{
    int i = Array.IndexOf(args, name);
    return i >= 0 && i + 1 < args.Length ? args[i + 1] : fallback;
}

int IntOption(string name, int fallback) => int.Parse(Option(name, fallback.ToString(CultureInfo.InvariantCulture)), CultureInfo.InvariantCulture);

CpuBudget budget = CpuBudget.Detect();
object result = mode switch
{
    "report" => Report(budget),
    "spin" => Spin(budget, IntOption("--workers", 2), TimeSpan.FromSeconds(IntOption("--timeout", 20))),
    "t1" => TimeRuns(budget, Option("--program", "montecarlopi"), Enum.Parse<ProblemSize>(Option("--size", "medium"), ignoreCase: true),
        IntOption("--runs", 5), args.Contains("--workers") ? IntOption("--workers", 1) : null, IntOption("--granularity-cores", 2)),
    _ => throw new ArgumentException($"Unknown mode '{mode}': report, spin or t1."),
};
Console.WriteLine(JsonSerializer.Serialize(result, result.GetType(), ProbeJson.Default));
return 0;

static ProbeReport Report(CpuBudget budget)
{
    using var standalone = new WorkStealingTaskScheduler();
    using var multiprogram = new MultiProgramScheduler(new MultiProgramSchedulerOptions { BestEffortPinning = true });
    return new ProbeReport(
        budget.Cores, budget.LimitedBy.ToString(), budget.Quota?.Cpus, budget.Quota?.Directory, budget.CgroupDirectory,
        Environment.ProcessorCount, standalone.WorkerCount, standalone.BudgetWarning, multiprogram.WorkerCount,
        multiprogram.PinnedProcessors, multiprogram.BudgetWarning, budget.Describe());
}

static ProbeSpin Spin(CpuBudget budget, int workers, TimeSpan timeout)
{
    CpuThrottling before = budget.ReadThrottling() ?? throw new InvalidOperationException("No cgroup cpu.stat to read throttling from.");
    using var scheduler = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { WorkerCount = workers, Budget = budget });
    using var stop = new CancellationTokenSource();
    Task[] spinners = Enumerable.Range(0, workers)
        .Select(_ => Task.Factory.StartNew(() => { while (!stop.IsCancellationRequested) { Thread.SpinWait(1000); } }, CancellationToken.None, TaskCreationOptions.None, scheduler))
        .ToArray();
    var clock = Stopwatch.StartNew();
    CpuThrottling run = before - before;
    while (clock.Elapsed < timeout && !run.WasThrottled)
    {
        Thread.Sleep(100);
        run = (budget.ReadThrottling() ?? before) - before;
    }

    stop.Cancel();
    Task.WaitAll(spinners, TimeSpan.FromSeconds(30));
    return new ProbeSpin(workers, scheduler.BudgetWarning, clock.Elapsed.TotalSeconds, run.Periods, run.ThrottledPeriods, run.ThrottledTime.TotalSeconds, run.Source);
}

static ProbeTimes TimeRuns(CpuBudget budget, string name, ProblemSize size, int runs, int? workers, int granularityCores)
{
    IDivConSample program = SampleCatalog.Create(name, size, settings: new SampleSettings { Cores = granularityCores });
    using var scheduler = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { WorkerCount = workers, Budget = budget });
    program.RunParallelAsync(scheduler).GetAwaiter().GetResult(); // warm-up: input data, JIT
    CpuThrottling? before = budget.ReadThrottling();
    var seconds = new List<double>();
    for (int i = 0; i < runs; i++)
    {
        long start = Stopwatch.GetTimestamp();
        program.RunParallelAsync(scheduler).GetAwaiter().GetResult();
        seconds.Add(Stopwatch.GetElapsedTime(start).TotalSeconds);
        program.Verify();
    }

    CpuThrottling? throttled = before is null ? null : budget.ReadThrottling() is CpuThrottling after ? after - before : null;
    return new ProbeTimes(name, size.ToString(), scheduler.WorkerCount, budget.Cores, seconds, throttled?.ThrottledPeriods, throttled?.ThrottledTime.TotalSeconds);
}
