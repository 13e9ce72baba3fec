using System.Globalization;
using System.Text;
using DivCon.Harness.Reporting;
using DivCon.Metrics.Results;

namespace DivCon.Harness.Open;

/// <summary>The open workload's table (stdout), CSV (one row per repetition, scheme and class) and Markdown report.</summary>
public static class OpenReport
{
    /// <summary>The table printed at the end: per scheme and class the slowdown quantiles; per scheme throughput and utilisation; the comparisons.</summary>
    public static string Table(OpenResult result) =>
        AppendTables(result, new StringBuilder().AppendLine(Header(result)).AppendLine(), markdown: false).ToString();

    /// <summary><c>report.md</c>: the settings, the classes alone, the tables, the comparisons and how to read them.</summary>
    public static string Markdown(OpenResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var text = new StringBuilder();
        text.AppendLine("# Open workload").AppendLine();
        text.AppendLine(Header(result)).AppendLine();
        text.AppendLine(CultureInfo.InvariantCulture, $"Machine: {result.Machine.ProcessorCount} processors, {result.Machine.OperatingSystem}, {result.Machine.Runtime}, commit {result.Machine.GitCommit ?? "unknown"}{(result.Machine.GitDirty == true ? " (dirty)" : "")}.").AppendLine();
        text.AppendLine("## Job classes alone").AppendLine();
        var classes = new TextTable("class", "role", "weight", "alone (ms, median)", "one worker (ms, median)", "scalability", "what it runs");
        foreach (OpenClassInfo c in result.Classes)
        {
            classes.Row(c.Name, c.Role, Format.Number(c.Weight, "0.###"), Format.Number(c.AloneMs, "0.00"), Format.Number(c.OneWorkerMs, "0.00"), Format.Number(c.Scalability, "0.00"), c.Description);
        }

        text.Append(classes.Markdown()).AppendLine();
        AppendTables(result, text, markdown: true);
        text.AppendLine();
        text.AppendLine("Slowdown = a job's turnaround (arrival to completion) / its class's median time alone on every processor. Each quantile is computed per "
            + "repetition and averaged over the repetitions, with a 99 % percentile-bootstrap interval over them. Comparisons pair the repetitions (the "
            + "same arrival sequence); ratio = scheme / baseline (geometric mean of the per-repetition ratios) with its 99 % interval, p two-sided, "
            + "Holm-corrected over the schemes per metric. Utilisation = process CPU time / (cores × elapsed): spinning workers count as busy.");
        return text.ToString();
    }

    /// <summary>One row per repetition, scheme and class (every derived number of a run).</summary>
    public static CsvTable Csv(OpenResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var csv = new CsvTable("repetition", "scheme", "class", "jobs", "slowdown_p50", "slowdown_p95", "slowdown_p99", "throughput_jobs_per_s", "utilization", "elapsed_s", "cpu_s", "max_lag_ms");
        foreach (OpenRepetition r in result.Repetitions)
        {
            foreach (OpenRun run in r.Runs)
            {
                foreach (OpenClassInfo c in result.Classes)
                {
                    IReadOnlyList<double> s = OpenAnalysis.Slowdowns(r, run, c);
                    csv.Row(r.Repetition, run.Scheme, c.Name, s.Count, OpenAnalysis.Quantile(s, 0.5), OpenAnalysis.Quantile(s, 0.95), OpenAnalysis.Quantile(s, 0.99),
                        OpenAnalysis.Throughput(run), OpenAnalysis.Utilization(run), run.ElapsedSeconds, run.CpuSeconds, run.MaxLagMs);
                }
            }
        }

        return csv;
    }

    private static string Header(OpenResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        OpenSettings s = result.Settings;
        string arrivals = s.Trace is not null
            ? $"trace {s.Trace}"
            : string.Create(CultureInfo.InvariantCulture, $"Poisson arrivals at {s.Rate:0.###}/s for {s.DurationSeconds:0.###} s");
        int jobs = result.Repetitions.Sum(r => r.Arrivals.Count);
        return string.Create(CultureInfo.InvariantCulture,
            $"Open workload: {arrivals}, {s.Repetitions} repetition(s) ({jobs} jobs per scheme in all), seed {s.Seed}, {s.Processors.Count} processors ({string.Join(",", s.Processors)}), "
            + $"partitioned schemes repartition every {s.RepartitionIntervalMs:0.###} ms; loops {s.Loops}; baseline {result.Baseline}.");
    }

    private static StringBuilder AppendTables(OpenResult result, StringBuilder text, bool markdown)
    {
        var quantiles = new TextTable("scheme", "class", "jobs", "slowdown p50", "slowdown p95", "slowdown p99");
        foreach (OpenSchemeSummary scheme in result.Summary)
        {
            foreach (OpenClassSummary c in scheme.Classes)
            {
                quantiles.Row(scheme.Scheme, c.Class, c.Jobs, Format.Interval(c.P50, "0.00"), Format.Interval(c.P95, "0.00"), Format.Interval(c.P99, "0.00"));
            }
        }

        text.Append(quantiles.Render(markdown)).AppendLine();
        var load = new TextTable("scheme", "throughput (jobs/s)", "utilisation");
        foreach (OpenSchemeSummary s in result.Summary)
        {
            load.Row(s.Scheme, Format.Interval(s.Throughput, "0.00"), Format.Interval(s.Utilization, "0.000"));
        }

        text.Append(load.Render(markdown));
        if (result.Comparisons.Count > 0)
        {
            var comparisons = new TextTable("metric", "scheme / baseline", "ratio", "99 % interval", "p", "p (Holm)");
            foreach (OpenComparison c in result.Comparisons)
            {
                comparisons.Row(c.Metric, $"{c.Scheme} / {c.Baseline}", Format.Number(c.Ratio.Ratio, "0.000"),
                    c.Ratio.Ci is { } ci ? $"[{Format.Number(ci.Lower, "0.000")}, {Format.Number(ci.Upper, "0.000")}]" : "n/a",
                    Format.P(c.Ratio.P), Format.P(c.PHolm));
            }

            text.AppendLine().Append(comparisons.Render(markdown));
        }

        return text;
    }
}
