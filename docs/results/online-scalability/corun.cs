#:project ../../../samples/DivCon.Samples/DivCon.Samples.csproj
// What the online estimator's one-core baseline is on 2 cores (docs/online-scalability.md, "What the targets need").
// In the cyclic test a program on one core always has another program on the other core; it is seen on two cores only
// in probes, alone. Its measured scalability, T_seq / C^SP, is taken alone on one and on two cores. For each target
// program this measures, in interleaved rounds (medians of the wall time per run): alone on processor 0 with processor
// 1 idle (T_1), alone on both (T_2), and on processor 0 while each partner program runs in a loop on processor 1. If a
// partner slows the target's one-core runs as much as its own second worker does (memory bandwidth), the estimator
// sees no work inflation while the measured scalability does.
//   dotnet run -c Release docs/results/online-scalability/corun.cs -- [targets] [rounds]
//   (defaults: sumofsquares,strassen and 5 rounds; about 2 min on a quiet machine)
using System.Diagnostics;
using DivCon.Samples;
using DivCon.Scheduling;

string[] targets = args.Length > 0 ? args[0].Split(',') : ["sumofsquares", "strassen"];
int rounds = args.Length > 1 ? int.Parse(args[1], System.Globalization.CultureInfo.InvariantCulture) : 5;
const int Runs = 5;
string[] partners = SampleCatalog.Names.ToArray();

IDivConSample Create(string name)
{
    IDivConSample program = SampleCatalog.Create(name, ProblemSize.Medium);
    program.UseAutomaticGranularity(2);
    return program;
}

using var one = WorkStealingTaskScheduler.CreatePinned([0]);
using var other = WorkStealingTaskScheduler.CreatePinned([1]);
using var two = WorkStealingTaskScheduler.CreatePinned([0, 1]);
Dictionary<string, IDivConSample> partnerPrograms = partners.ToDictionary(n => n, Create);
foreach (IDivConSample p in partnerPrograms.Values)
{
    await p.RunParallelAsync(other); // makes its data and warms it up
}

Console.WriteLine($"2 cores, size medium, {rounds} rounds of {Runs} runs per configuration; medians of the wall time per run.");
foreach (string target in targets)
{
    IDivConSample program = Create(target);
    await program.RunParallelAsync(two);
    var times = new Dictionary<string, List<double>>();
    for (int r = 0; r < rounds; r++)
    {
        await Measure("alone, 1 core", one);
        await Measure("alone, 2 cores", two);
        foreach ((string name, IDivConSample partner) in partnerPrograms)
        {
            using var stop = new CancellationTokenSource();
            Task loop = Task.Run(async () =>
            {
                while (!stop.IsCancellationRequested)
                {
                    await partner.RunParallelAsync(other);
                }
            });
            await Measure($"1 core, beside {name}", one);
            stop.Cancel();
            await loop;
        }
    }

    double t1 = Median(times["alone, 1 core"]), t2 = Median(times["alone, 2 cores"]);
    Console.WriteLine($"{target}: T_1 alone {t1:F1} ms, T_2 alone {t2:F1} ms, T_1 / T_2 = {t1 / t2:F2}");
    foreach ((string config, List<double> values) in times.Where(kv => kv.Key.StartsWith("1 core, beside", StringComparison.Ordinal)))
    {
        double t = Median(values);
        Console.WriteLine($"  {config,-28} {t,7:F1} ms  ({t / t1:F2} x alone; as the estimator sees it, T_1 / T_2 = {t / t2:F2})");
    }

    async Task Measure(string config, TaskScheduler scheduler)
    {
        if (!times.TryGetValue(config, out List<double>? list))
        {
            times[config] = list = [];
        }

        for (int i = 0; i < Runs; i++)
        {
            long start = Stopwatch.GetTimestamp();
            await program.RunParallelAsync(scheduler);
            list.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
        }
    }
}

static double Median(List<double> values)
{
    double[] sorted = values.Order().ToArray();
    return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
}
