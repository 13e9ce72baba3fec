// DivCon's scheduler telemetry through OpenTelemetry. Every WorkStealingTaskScheduler and MultiProgramScheduler
// publishes its instruments on a Meter named "DivCon.Scheduling" (names: DivCon.Scheduling.SchedulingTelemetry,
// table: docs/telemetry.md); a MeterProvider that adds that meter exports them like any other .NET metric.
//
//   dotnet run --project samples/Telemetry -c Release -- [--seconds 6] [--prometheus 9464]
//
// Console: one block per instrument every 2 s. With --prometheus PORT the same metrics are also served at
// http://localhost:PORT/metrics for a Prometheus scraper (curl it while the sample runs).
using System.Globalization;
using DivCon.Multiprogramming;
using DivCon.Scheduling;
using DivCon.Skeletons;
using OpenTelemetry;
using OpenTelemetry.Metrics;

int seconds = 6;
int? prometheusPort = null;
for (int i = 0; i + 1 < args.Length; i += 2)
{
    switch (args[i])
    {
        case "--seconds": seconds = int.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
        case "--prometheus": prometheusPort = int.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
        default: Console.Error.WriteLine($"Unknown option {args[i]}; options: --seconds N, --prometheus PORT."); return 2;
    }
}

MeterProviderBuilder builder = Sdk.CreateMeterProviderBuilder()
    .AddMeter(SchedulingTelemetry.MeterName)
    .AddConsoleExporter((_, reader) => reader.PeriodicExportingMetricReaderOptions.ExportIntervalMilliseconds = 2000);
if (prometheusPort is int port)
{
    builder.AddPrometheusHttpListener(o => { o.Host = "localhost"; o.Port = port; });
}

using MeterProvider metrics = builder.Build();

// The budget both schedulers size themselves by: under a container CPU limit it is the quota, not the node's cores.
CpuBudget budget = CpuBudget.Detect();
Console.WriteLine(string.Join(Environment.NewLine, budget.Describe()));

using var standalone = new WorkStealingTaskScheduler();
using var pool = new MultiProgramScheduler(new MultiProgramSchedulerOptions { BestEffortPinning = true, RepartitionInterval = TimeSpan.FromMilliseconds(50) });
ProgramHandle left = pool.AddProgram("left");
ProgramHandle right = pool.AddProgram("right");

// Three divide-and-conquer sums (1..n of i², split down to 100 000 elements) run again and again until the time is up.
var until = DateTime.UtcNow.AddSeconds(seconds);
async Task Loop(TaskScheduler scheduler)
{
    DivConBase<(long From, long To), double> sum = DivConFactory.Create<(long From, long To), double>(
        scheduler,
        shouldSplit: (r, _) => r.To - r.From > 100_000,
        split: r => [(r.From, (r.From + r.To) / 2), ((r.From + r.To) / 2, r.To)],
        executeMuscle: r =>
        {
            double s = 0;
            for (long i = r.From; i < r.To; i++)
            {
                s += (double)i * i;
            }

            return s;
        },
        merge: parts => parts.Sum());
    while (DateTime.UtcNow < until)
    {
        await sum.RunAsync((1, 20_000_001));
    }
}

await Task.WhenAll(Loop(standalone), Loop(left.Scheduler), Loop(right.Scheduler));
metrics.ForceFlush();
Console.WriteLine(FormattableString.Invariant(
    $"standalone: {standalone.WorkerCount} workers, {standalone.GetStatistics().TasksExecuted} tasks; pool: {pool.WorkerCount} workers, {left.GetStatistics().TasksExecuted + right.GetStatistics().TasksExecuted} tasks"));
return 0;
