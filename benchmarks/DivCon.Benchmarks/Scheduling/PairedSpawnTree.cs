using System.Diagnostics;
using System.Globalization;
using DivCon.Scheduling;

namespace DivCon.Benchmarks.Scheduling;

/// <summary>
/// The spawn-tree comparison of <see cref="SpawnTreeBenchmarks"/>, interleaved: each round runs every tree size on
/// every scheduler back to back (in an order rotated from round to round), so each ratio to Default compares runs
/// taken seconds apart. BenchmarkDotNet measures one case for about a minute before the next; on a VM whose speed
/// drifts by 2× over minutes (other tenants of the host) that confounds the cases, while paired ratios do not.
/// Reports, per depth and for the slope over the depths, the median ns/task and the median of the per-round ratios
/// with its distribution-free 95 % confidence interval (order statistics of the binomial).
/// </summary>
/// <remarks>Run: <c>dotnet run -c Release --project benchmarks/DivCon.Benchmarks -- paired-spawn-tree [--rounds 31] [--depths 16,18,20]</c>.</remarks>
public static class PairedSpawnTree
{
    public const string Command = "paired-spawn-tree";

    public static int Run(string[] args)
    {
        int rounds = 31;
        int[] depths = [16, 18, 20];
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--rounds" when i + 1 < args.Length && int.TryParse(args[i + 1], out int r) && r >= 6:
                    rounds = r;
                    i++;
                    break;
                case "--depths" when i + 1 < args.Length && TryParseDepths(args[i + 1], out int[] d):
                    depths = d;
                    i++;
                    break;
                default:
                    Console.Error.WriteLine($"{Command}: unknown or invalid option '{args[i]}'. Options: --rounds N (N >= 6), --depths a,b,c (2 to 4 distinct depths in 10..22).");
                    return 2;
            }
        }

        using WorkStealingTaskScheduler workStealing = SchedulerKind.CreateWorkStealing();
        using WorkStealingTaskScheduler pinned = SchedulerKind.CreatePinned();
        var schedulers = new (string Name, TaskScheduler Scheduler)[]
        {
            ("Default", TaskScheduler.Default),
            ("WorkStealing(2)", workStealing),
            (pinned.IsPinned ? "WorkStealing(2) pinned" : "WorkStealing(2) (pinning unavailable)", pinned),
        };

        // nsPerTask[round][scheduler][depth]
        var nsPerTask = new double[rounds][][];
        for (int round = -2; round < rounds; round++) // two warm-up rounds
        {
            var times = new double[schedulers.Length][];
            for (int s = 0; s < schedulers.Length; s++)
            {
                times[s] = new double[depths.Length];
            }

            for (int d = 0; d < depths.Length; d++)
            {
                for (int k = 0; k < schedulers.Length; k++)
                {
                    int s = (k + Math.Max(round, 0)) % schedulers.Length;
                    long start = Stopwatch.GetTimestamp();
                    long leaves = SpawnTree.Run(schedulers[s].Scheduler, depths[d]);
                    double elapsedNs = Stopwatch.GetElapsedTime(start).TotalMilliseconds * 1e6;
                    if (leaves != 1L << depths[d])
                    {
                        throw new InvalidOperationException($"{schedulers[s].Name}: {leaves} leaves ran, expected {1L << depths[d]}.");
                    }

                    times[s][d] = elapsedNs;
                }
            }

            if (round >= 0)
            {
                nsPerTask[round] = times;
            }
        }

        Console.WriteLine($"Interleaved spawn tree, {rounds} rounds (each: every depth on every scheduler, order rotated), {Environment.ProcessorCount} processors");
        Console.WriteLine("ratio = median of the per-round ratios to Default [95 % CI of that median]");
        Console.WriteLine();
        Console.WriteLine($"{"scheduler",-28} {"depth",6} {"median ns/task",15} {"ratio to Default",28}");
        for (int d = 0; d <= depths.Length; d++)
        {
            bool slope = d == depths.Length;
            double Value(int round, int s) => slope
                ? Slope(depths, nsPerTask[round][s])
                : nsPerTask[round][s][d] / SpawnTree.Size(depths[d]);
            for (int s = 0; s < schedulers.Length; s++)
            {
                double[] values = [.. Enumerable.Range(0, rounds).Select(r => Value(r, s))];
                double[] ratios = [.. Enumerable.Range(0, rounds).Select(r => Value(r, s) / Value(r, 0))];
                (double median, double low, double high) = MedianWithInterval(ratios);
                string label = slope ? "slope" : depths[d].ToString(CultureInfo.InvariantCulture);
                string ratio = s == 0 ? "1" : string.Create(CultureInfo.InvariantCulture, $"{median:F2} [{low:F2}, {high:F2}]");
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{schedulers[s].Name,-28} {label,6} {Median(values),15:F1} {ratio,28}"));
            }
        }

        return 0;
    }

    /// <summary>Least-squares slope of time (ns) over tree size (tasks): ns per task with a fixed per-run cost removed.</summary>
    internal static double Slope(int[] depths, double[] timesNs)
    {
        double[] x = [.. depths.Select(d => (double)SpawnTree.Size(d))];
        double mx = x.Average(), my = timesNs.Average();
        double sxy = 0, sxx = 0;
        for (int i = 0; i < x.Length; i++)
        {
            sxy += (x[i] - mx) * (timesNs[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
        }

        return sxy / sxx;
    }

    /// <summary>
    /// The median and a distribution-free 95 % interval for it: the order statistics j and n + 1 − j, with j the
    /// largest rank such that P(Binomial(n, 1/2) &lt; j) ≤ 2.5 %.
    /// </summary>
    internal static (double Median, double Low, double High) MedianWithInterval(double[] values)
    {
        double[] sorted = [.. values.Order()];
        int n = sorted.Length;
        double cumulative = 0;
        int j = 0;
        for (int k = 0; k < n; k++)
        {
            cumulative += BinomialHalf(n, k);
            if (cumulative > 0.025)
            {
                break;
            }

            j = k + 1;
        }

        j = Math.Max(j, 1);
        return (Median(sorted), sorted[j - 1], sorted[n - j]);
    }

    private static double Median(double[] values)
    {
        double[] sorted = [.. values.Order()];
        int n = sorted.Length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[(n / 2) - 1] + sorted[n / 2]) / 2;
    }

    // P(Binomial(n, 1/2) = k), in logs to stay finite for large n.
    private static double BinomialHalf(int n, int k)
    {
        double log = -n * Math.Log(2);
        for (int i = 1; i <= k; i++)
        {
            log += Math.Log(n - k + i) - Math.Log(i);
        }

        return Math.Exp(log);
    }

    private static bool TryParseDepths(string text, out int[] depths)
    {
        string[] parts = text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        depths = new int[parts.Length];
        for (int i = 0; i < parts.Length; i++)
        {
            if (!int.TryParse(parts[i], NumberStyles.Integer, CultureInfo.InvariantCulture, out depths[i]) || depths[i] is < 10 or > 22)
            {
                return false;
            }
        }

        return depths.Length is >= 2 and <= 4 && depths.Distinct().Count() == depths.Length;
    }
}
