// The cgroup probe: run inside a cgroup (the tests start it through a shell that first moves itself into the group),
// it prints one JSON object with what DivCon and the runtime see there.
//
//   report                      the budget, Environment.ProcessorCount and both schedulers' default worker counts
//   spin --workers N --timeout S  N spinning workers (an explicit count, over the budget when N > budget) until
//                               the cgroup's cpu.stat shows throttled periods and throttled time, or S seconds pass
//   t1 --program P --size S --runs R [--workers N] [--granularity-cores G]
//                               R timed runs of a sample program on a WorkStealingTaskScheduler (default: the
//                               budget's worker count), granularity fixed for G cores so every run has the same tree
//   t1-quota --group DIR --rounds R [--program P --size S --granularity-cores G]
//                               T_1 inside and outside a quota, interleaved in one process: each round moves the
//                               process into DIR (writing its pid to DIR/cgroup.procs), times one run on a default
//                               WorkStealingTaskScheduler (the budget there), moves back to its own group and times one
//                               run on 1 worker; the order alternates between rounds
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
    "t1-quota" => QuotaPairs(Option("--group", ""), IntOption("--rounds", 10), Option("--program", "montecarlopi"),
        Enum.Parse<ProblemSize>(Option("--size", "medium"), ignoreCase: true), IntOption("--granularity-cores", 2)),
    _ => throw new ArgumentException($"Unknown mode '{mode}': report, spin, t1 or t1-quota."),
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
    while (clock.Elapsed < timeout && (run.ThrottledPeriods == 0 || run.ThrottledTime == TimeSpan.Zero))
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

static ProbeQuotaPairs QuotaPairs(string group, int rounds, string name, ProblemSize size, int granularityCores)
{
    string home = CpuBudget.Detect().CgroupDirectory ?? throw new InvalidOperationException("No cgroup cpu controller.");
    IDivConSample program = SampleCatalog.Create(name, size, settings: new SampleSettings { Cores = granularityCores });
    using (var warmUp = new WorkStealingTaskScheduler(1))
    {
        program.RunParallelAsync(warmUp).GetAwaiter().GetResult();
    }

    var inside = new List<double>();
    var outside = new List<double>();
    var insideWorkers = new List<int>();
    long throttledPeriods = 0;
    double throttledSeconds = 0;
    for (int round = 0; round < rounds; round++)
    {
        foreach (bool quota in round % 2 == 0 ? new[] { true, false } : [false, true])
        {
            MoveTo(quota ? group : home);
            CpuBudget budget = CpuBudget.Detect();
            using var scheduler = quota ? new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { Budget = budget }) : new WorkStealingTaskScheduler(1);
            CpuThrottling? before = budget.ReadThrottling();
            long start = Stopwatch.GetTimestamp();
            program.RunParallelAsync(scheduler).GetAwaiter().GetResult();
            double seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
            program.Verify();
            if (quota)
            {
                inside.Add(seconds);
                insideWorkers.Add(scheduler.WorkerCount);
                if (before is not null && budget.ReadThrottling() is CpuThrottling after)
                {
                    CpuThrottling run = after - before;
                    throttledPeriods += run.ThrottledPeriods;
                    throttledSeconds += run.ThrottledTime.TotalSeconds;
                }
            }
            else
            {
                outside.Add(seconds);
            }
        }
    }

    MoveTo(home);
    double[] ratios = inside.Zip(outside, (a, b) => a / b).Order().ToArray();
    return new ProbeQuotaPairs(name, size.ToString(), group, inside, outside, insideWorkers, ratios[ratios.Length / 2], Median(inside) / Median(outside), throttledPeriods, throttledSeconds);
}

static void MoveTo(string directory) =>
    File.WriteAllText(Path.Join(directory, "cgroup.procs"), Environment.ProcessId.ToString(CultureInfo.InvariantCulture));

static double Median(List<double> values)
{
    double[] sorted = values.Order().ToArray();
    return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
}
