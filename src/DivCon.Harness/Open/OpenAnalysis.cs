using DivCon.Metrics.Statistics;
using MathNet.Numerics.Statistics;

namespace DivCon.Harness.Open;

/// <summary>
/// The open workload's numbers from its raw times (pure): per run and job class the slowdown of each job (its
/// turnaround / the class's time alone) and their 50th, 95th and 99th percentiles (R7 quantiles); per run the
/// throughput (jobs / elapsed) and CPU utilisation (CPU time / (cores × elapsed)); per scheme each metric's mean over
/// the repetitions with a 99 % percentile-bootstrap interval (<see cref="Bootstrap"/>); and each scheme against the
/// baseline on every class's p99 slowdown and on throughput, paired by repetition (<see cref="PairedRatio"/>), with
/// Holm's correction over the schemes per metric (<see cref="Holm"/>).
/// </summary>
public static class OpenAnalysis
{
    /// <summary>The R7 (linear interpolation) quantile <paramref name="p"/> of <paramref name="values"/>; NaN when empty.</summary>
    public static double Quantile(IEnumerable<double> values, double p)
    {
        ArgumentNullException.ThrowIfNull(values);
        double[] sorted = [.. values.Order()];
        return sorted.Length == 0 ? double.NaN : SortedArrayStatistics.QuantileCustom(sorted, p, QuantileDefinition.R7);
    }

    /// <summary>The slowdowns of the jobs of <paramref name="jobClass"/> in <paramref name="run"/> of <paramref name="repetition"/>.</summary>
    public static IReadOnlyList<double> Slowdowns(OpenRepetition repetition, OpenRun run, OpenClassInfo jobClass)
    {
        ArgumentNullException.ThrowIfNull(repetition);
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(jobClass);
        return [.. run.TurnaroundMs.Where((_, i) => repetition.Arrivals[i].Class == jobClass.Name).Select(t => t / jobClass.AloneMs)];
    }

    /// <summary>Jobs per second of <paramref name="run"/>.</summary>
    public static double Throughput(OpenRun run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return run.TurnaroundMs.Count / run.ElapsedSeconds;
    }

    /// <summary>CPU time / (cores × elapsed) of <paramref name="run"/>.</summary>
    public static double Utilization(OpenRun run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return run.CpuSeconds / (run.Cores * run.ElapsedSeconds);
    }

    /// <summary>Per scheme, in <paramref name="schemes"/>' order: slowdown quantiles per class, throughput and utilisation.</summary>
    public static IReadOnlyList<OpenSchemeSummary> Summarize(IReadOnlyList<OpenClassInfo> classes, IReadOnlyList<string> schemes, IReadOnlyList<OpenRepetition> repetitions)
    {
        ArgumentNullException.ThrowIfNull(classes);
        ArgumentNullException.ThrowIfNull(schemes);
        ArgumentNullException.ThrowIfNull(repetitions);
        return schemes.Select(scheme =>
        {
            var runs = repetitions.Select(r => (Repetition: r, Run: r.Runs.Single(x => x.Scheme == scheme))).ToList();
            var perClass = classes.Select(c =>
            {
                var slowdowns = runs.Select(r => Slowdowns(r.Repetition, r.Run, c)).ToList();
                return new OpenClassSummary(
                    c.Name,
                    slowdowns.Sum(s => s.Count),
                    Estimate(slowdowns.Select(s => Quantile(s, 0.50))),
                    Estimate(slowdowns.Select(s => Quantile(s, 0.95))),
                    Estimate(slowdowns.Select(s => Quantile(s, 0.99))));
            }).ToList();
            return new OpenSchemeSummary(scheme, perClass, Estimate(runs.Select(r => Throughput(r.Run))), Estimate(runs.Select(r => Utilization(r.Run))));
        }).ToList();
    }

    /// <summary>
    /// Each scheme but <paramref name="baseline"/> against it, per metric (every class's p99 slowdown, then throughput),
    /// paired by repetition, Holm-corrected over the schemes of each metric.
    /// </summary>
    public static IReadOnlyList<OpenComparison> Compare(IReadOnlyList<OpenClassInfo> classes, IReadOnlyList<string> schemes, string baseline, IReadOnlyList<OpenRepetition> repetitions)
    {
        ArgumentNullException.ThrowIfNull(classes);
        ArgumentNullException.ThrowIfNull(schemes);
        ArgumentNullException.ThrowIfNull(repetitions);
        IEnumerable<(string Metric, Func<OpenRepetition, OpenRun, double> Value)> metrics = classes
            .Select(c => ($"p99 slowdown {c.Name}", (Func<OpenRepetition, OpenRun, double>)((r, run) => Quantile(Slowdowns(r, run, c), 0.99))))
            .Append(("throughput", (_, run) => Throughput(run)));
        var comparisons = new List<OpenComparison>();
        foreach ((string metric, Func<OpenRepetition, OpenRun, double> value) in metrics)
        {
            var family = new List<(string Scheme, PairedRatioResult Ratio)>();
            foreach (string scheme in schemes.Where(s => s != baseline))
            {
                // The repetitions where both values are positive and finite.
                var pairs = repetitions
                    .Select(r => (X: value(r, r.Runs.Single(run => run.Scheme == scheme)), Y: value(r, r.Runs.Single(run => run.Scheme == baseline))))
                    .Where(p => p.X > 0 && p.Y > 0 && double.IsFinite(p.X) && double.IsFinite(p.Y))
                    .ToArray();
                if (pairs.Length > 0)
                {
                    family.Add((scheme, PairedRatio.Compare([.. pairs.Select(p => p.X)], [.. pairs.Select(p => p.Y)])));
                }
            }

            double?[] adjusted = Holm.Adjust(family.Select(f => f.Ratio.P).ToArray());
            comparisons.AddRange(family.Select((f, i) => new OpenComparison(metric, f.Scheme, baseline, f.Ratio, adjusted[i])));
        }

        return comparisons;
    }

    /// <summary>The mean of the finite values with its 99 % percentile-bootstrap interval (null with fewer than two).</summary>
    public static BootstrapEstimate Estimate(IEnumerable<double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        double[] finite = [.. values.Where(double.IsFinite)];
        if (finite.Length == 0)
        {
            return new BootstrapEstimate(double.NaN, 0, null);
        }

        ConfidenceInterval? ci = Bootstrap.Percentile(finite.Length, 1, indices => [indices.Average(i => finite[i])])[0];
        return new BootstrapEstimate(finite.Average(), finite.Length, ci);
    }
}
