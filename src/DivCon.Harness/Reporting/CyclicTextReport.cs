using System.Globalization;
using System.Text;
using DivCon.Harness.Cyclic;
using DivCon.Metrics;
using DivCon.Metrics.Factored;
using DivCon.Metrics.Results;
using DivCon.Metrics.Statistics;

namespace DivCon.Harness.Reporting;

/// <summary>
/// The fixed-width table printed at the end of a run, and the Markdown report: per scheme each program's C^SP, C^MP,
/// runs, NTT and NP with their 99 % intervals, then ANTT, MNTT, STP per scheme with theirs, then the paired
/// comparisons (resolved ones on the terminal, every one in the report), the blocked ANOVA and what the run could
/// resolve, and the CPU budget and throttling. n is always a number of invocations (independent processes).
/// </summary>
public static class CyclicTextReport
{
    /// <summary>The plain-text table for the terminal.</summary>
    public static string Table(CyclicResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var b = new StringBuilder();
        CyclicPlanRecord c = result.Configuration;
        b.Append(CultureInfo.InvariantCulture, $"{Title(c)}\n");
        b.Append(CultureInfo.InvariantCulture, $"{SpLine(result)}\n");
        b.Append(ScalabilityLines(result, string.Empty));
        b.Append(CultureInfo.InvariantCulture, $"[ ] = 99 % interval, {IntervalBasis(result)}; times in seconds.\n\n");
        b.Append(CultureInfo.InvariantCulture, $"{"scheme",-22} {"program",-16} {"C^SP",8} {"C^MP",8} {"runs",5}  {"NTT [99 % CI]",-24} {"NP [99 % CI]",-24}\n");
        foreach (var (s, p) in SchemePrograms(result))
        {
            b.Append(CultureInfo.InvariantCulture,
                $"{(ReferenceEquals(p, s.Programs[0]) ? s.Scheme : string.Empty),-22} {p.Program,-16} {Format.Number(p.Csp.Mean),8} {Format.Number(p.Cmp?.Mean),8} {p.Runs,5}  {Format.Interval(p.Ntt),-24} {Format.Interval(p.Np),-24}\n");
        }

        b.Append('\n');
        b.Append(CultureInfo.InvariantCulture, $"{"scheme",-22} {"ANTT [99 % CI] (lower better)",-30} {"MNTT [99 % CI]",-24} {"STP [99 % CI] (higher better)",-30}\n");
        foreach (SchemeResult s in result.Schemes)
        {
            b.Append(CultureInfo.InvariantCulture, $"{s.Scheme,-22} {Format.Interval(s.Antt),-30} {Format.Interval(s.Mntt),-24} {Format.Interval(s.Stp),-30}\n");
        }

        AppendComparisons(b, result, markdown: false);
        AppendInference(b, result, markdown: false);
        AppendWarnings(b, result, bullet: string.Empty);
        b.Append('\n').AppendJoin(string.Empty, ThrottlingLines(result).Select(l => l + "\n"));
        return b.ToString();
    }

    /// <summary>The Markdown report (<c>report.md</c>).</summary>
    public static string Markdown(CyclicResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var b = new StringBuilder();
        CyclicPlanRecord c = result.Configuration;
        MachineInfo m = result.Machine;
        b.Append(CultureInfo.InvariantCulture, $"# {(c.Kind == "symmetric" ? "Symmetric" : "Cyclic")} test\n\n");
        b.Append(CultureInfo.InvariantCulture, $"{Title(c)}\n\n");
        b.Append(new TextTable(string.Empty, string.Empty)
            .Row("started (UTC)", result.StartedUtc.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture))
            .Row("elapsed", $"{Format.Number(result.ElapsedSeconds, "0.0")} s")
            .Row("machine", $"{m.ProcessorCount} processors, affinity [{string.Join(",", m.Affinity)}], {m.Architecture}")
            .Row("OS / runtime", $"{m.OperatingSystem} / {m.Runtime}")
            .Row("commit", $"{m.GitCommit ?? "unknown"}{(m.GitDirty == true ? " (uncommitted changes)" : string.Empty)}")
            .Row("processors used", $"[{string.Join(",", c.Processors)}]")
            .Row("invocations", $"{result.Invocations.Count} independent processes{SizingNote(result)}")
            .Row("C^SP", SpLine(result))
            .Row("seed", $"{c.Seed}; scheme order {(c.ShuffleSchemes ? "shuffled per invocation" : "fixed")}")
            .Markdown()).Append('\n');
        b.Append(ScalabilityLines(result, "- ")).Append(result.Baselines.Any(x => x.Scalability is not null || x.OnlineScalability is not null) ? "\n" : string.Empty);

        b.Append(CultureInfo.InvariantCulture, $"## Per program\n\nTimes in seconds; [ ] is the 99 % interval, {IntervalBasis(result)}.\n\n");
        var programs = new TextTable("scheme", "program", "C^SP", "C^MP", "runs", "discarded", "NTT", "NP", "RSD", "Fieller g").Align("llllrrllrr");
        foreach (var (s, p) in SchemePrograms(result))
        {
            programs.Row(s.Scheme, p.Program, Format.Interval(p.Csp), Format.Interval(p.Cmp), p.Runs, p.Discarded, Format.Interval(p.Ntt), Format.Interval(p.Np),
                Format.Percent(p.Ntt?.RelativeStandardDeviation), Format.Number(p.Ntt?.G, "0.000"));
        }

        b.Append(programs.Markdown());

        b.Append("\n## Per scheme\n\nRatio-of-means NTTs over the invocations in which every program ran; 99 % percentile bootstrap intervals over those invocations.\n\n");
        var schemes = new TextTable("scheme", "ANTT (lower better)", "MNTT", "STP (higher better)", "invocations").Align("llllr");
        foreach (SchemeResult s in result.Schemes)
        {
            schemes.Row(s.Scheme, Format.Interval(s.Antt), Format.Interval(s.Mntt), Format.Interval(s.Stp), s.Antt?.Count ?? 0);
        }

        b.Append(schemes.Markdown());

        AppendComparisons(b, result, markdown: true);
        AppendInference(b, result, markdown: true);
        AppendWarnings(b, result, bullet: "- ");
        AppendInvocations(b, result);
        b.Append("\n## Method\n\n").AppendJoin(string.Empty, CyclicResult.MethodNotes.Select(x => $"- **{x.Key}**: {x.Value}\n"));
        b.Append("\n## Schemes\n\n").AppendJoin(string.Empty, result.Schemes.Select(s => $"- **{s.Scheme}**: {s.Description}\n"));
        AppendSchedulers(b, result);
        AppendFactored(b, result);
        return b.Append(ThrottlingMarkdown(result)).ToString();
    }

    /// <summary>Issue 7: each program's factored speedups inside the multiprogram phase, or why there are none.</summary>
    private static void AppendFactored(StringBuilder b, CyclicResult result)
    {
        b.Append("\n## Factored speedups in the multiprogram phase\n\n"
            + "P = mean cores the program held (core-seconds / statistics window, from the arrangement's creation to the first run "
            + "stopped at the limit, summed over invocations); T_MP = mean recorded run; I and F per run; T_s and T_1 (1-worker "
            + "work-stealing scheduler) measured alone in each invocation. F is the leftover of P·T_MP = T_1 + I + F, not measured by itself: "
            + "it carries every error of T_1 and I (a negative F is such a bias, not less work). [ ] = 99 % bootstrap interval over the invocations. "
            + "Only the partitioned schemes keep this accounting.\n\n");
        var table = new TextTable("scheme", "program", "P", "T_MP s", "T_s s", "T_1 s", "I s", "F s [99 % CI]", "linear", "maximal", "idle-specific",
            "inflation-specific", "actual [99 % CI]").Align("llrrrrrlrrrrl");
        foreach (var (s, p) in SchemePrograms(result))
        {
            if (p.Factored?.Point is { } f && p.Factored.Accounting is { } a)
            {
                FactoredSpeedups x = f.Speedups;
                table.Row(s.Scheme, p.Program, Format.Number(f.P, "0.00"), Format.Number(f.Tp), Format.Number(a.SequentialSeconds), Format.Number(a.OneWorkerSeconds),
                    Format.Number(f.Ip), Format.Interval(f.Fp, f.Ci99?.Fp), Format.Number(x.Linear, "0.00"), Format.Number(x.Maximal, "0.00"),
                    Format.Number(x.IdleSpecific, "0.00"), Format.Number(x.InflationSpecific, "0.00"), Format.Interval(x.Actual, f.Ci99?.Actual, "0.00"));
            }
            else
            {
                table.Row([s.Scheme, p.Program, $"n/a: {p.Factored?.Reason ?? MultiprogramFactored.NoAccountingReason}", .. Enumerable.Repeat(string.Empty, 10)]);
            }
        }

        b.Append(table.Markdown());
    }

    private static IEnumerable<(SchemeResult Scheme, ProgramResult Program)> SchemePrograms(CyclicResult r) =>
        r.Schemes.SelectMany(s => s.Programs.Select(p => (s, p)));

    private static string Title(CyclicPlanRecord c) =>
        string.Create(CultureInfo.InvariantCulture,
            $"{(c.Kind == "symmetric" ? "Symmetric" : "Cyclic")} test: {string.Join(", ", c.Programs)}; size {c.Size}; {Format.Number(c.DurationSeconds, "0.#")} s per scheme; {CyclicResults.CountText(c.Repeat)} (independent processes); {c.Processors.Count} cores.");

    private static string SpLine(CyclicResult r)
    {
        CyclicPlanRecord c = r.Configuration;
        int windows = r.Baselines.Count * r.Invocations.Count;
        int notSteady = r.Baselines.Sum(x => x.NotSteady);
        return string.Create(CultureInfo.InvariantCulture,
            $"C^SP: per invocation, the last {c.SpRuns} runs alone on {c.SpScheme} once their CV ≤ {Format.Number(c.SteadyCv * 100, "0.#")} % (after at least {c.WarmupRuns} warm-up, at most {c.MaxWarmupRuns} more); {(notSteady == 0 ? "every window steady" : $"{notSteady} of {windows} windows not steady (cap reached)")}.");
    }

    // Per program, the measured scalability (T_seq / C^SP) and, with --scalability online, each partitioned scheme's final
    // online estimate beside it (relative difference in parentheses).
    private static string ScalabilityLines(CyclicResult r, string bullet)
    {
        var b = new StringBuilder();
        foreach (ProgramBaseline p in r.Baselines.Where(x => x.Scalability is not null || x.OnlineScalability is not null))
        {
            b.Append(CultureInfo.InvariantCulture, $"{bullet}scalability {p.Program}: measured {Format.Number(p.Scalability)}");
            foreach ((string scheme, double online) in p.OnlineScalability ?? new Dictionary<string, double>())
            {
                string diff = p.Scalability is { } m ? string.Create(CultureInfo.InvariantCulture, $" ({(online / m - 1) * 100:+0.0;-0.0} %)") : string.Empty;
                b.Append(CultureInfo.InvariantCulture, $", online {scheme} {Format.Number(online)}{diff}");
            }

            b.Append('\n');
        }

        return b.ToString();
    }

    private static string IntervalBasis(CyclicResult r) => r.Invocations.Count >= 2
        ? string.Create(CultureInfo.InvariantCulture, $"over n = {r.Invocations.Count} invocations (NTT, NP: Fieller; ANTT, MNTT, STP: percentile bootstrap)")
        : "over the runs of the one invocation for NTT and NP (run-to-run noise only, too narrow for another invocation); none for ANTT, MNTT, STP";

    private static string SizingNote(CyclicResult r) => r.Sizing is { } z
        ? string.Create(CultureInfo.InvariantCulture,
            $", sized by --repeat auto: pilot {z.Pilot}, to resolve {Format.Number(z.Detect * 100, "0.#")} % needs {string.Join(", ", z.Required.Select(kv => $"{kv.Key.ToUpperInvariant()} {(kv.Value is int v ? v.ToString(CultureInfo.InvariantCulture) : "more than the cap")}"))}; ran {z.Planned}{(z.Capped ? " (capped)" : string.Empty)}")
        : string.Empty;

    /// <summary>
    /// The comparisons: on the terminal the resolved ones and a count of the rest; in the report a table of all.
    /// </summary>
    private static void AppendComparisons(StringBuilder b, CyclicResult result, bool markdown)
    {
        IReadOnlyList<SchemeComparison> all = result.Comparisons;
        int m = all.Count(x => x.HolmP is not null);
        string family = result.Analysis.Baseline is { } baseline ? $"each scheme against {baseline}" : "every pair of schemes";
        b.Append(markdown ? "\n## Comparisons\n\n" : "\n");
        if (m == 0)
        {
            b.Append(CultureInfo.InvariantCulture,
                $"Comparisons: none with {CyclicResults.CountText(result.Invocations.Count)}. Scheme-level intervals and comparisons need independent invocations: rerun with --repeat 10, or --repeat auto --detect 5%.\n");
            return;
        }

        string header = string.Create(CultureInfo.InvariantCulture,
            $"Comparisons of ANTT and STP, {family}: ratio A / B of each invocation's value, paired by invocation on the log scale (n = {result.Invocations.Count}); Holm-corrected over all {m}; [ ] = simultaneous 99 % interval (Bonferroni over {m}). Resolved = Holm p < {Format.Number(1 - result.Analysis.Confidence, "0.##")}.");
        var resolved = all.Where(x => x.Resolved == true).ToArray();
        if (!markdown)
        {
            b.Append(header).Append('\n');
            b.Append(CultureInfo.InvariantCulture, $"Resolved: {resolved.Length} of {m}{(resolved.Length == 0 ? "." : ":")}\n");
            foreach (SchemeComparison x in resolved)
            {
                b.Append(CultureInfo.InvariantCulture,
                    $"  {x.Metric.ToUpperInvariant(),-4} {x.SchemeA + " / " + x.SchemeB,-46} {Format.Interval(x.Test.Ratio, x.FamilyCi)}  Holm p {Format.P(x.HolmP)}  {Reading(x)}\n");
            }

            if (resolved.Length < m)
            {
                b.Append(CultureInfo.InvariantCulture, $"Not resolved: {m - resolved.Length} (each in report.md with its interval).\n");
            }

            return;
        }

        b.Append(header).Append("\n\n");
        var table = new TextTable("metric", "A", "B", "A / B", "99 % CI", "simultaneous 99 % CI", "p", "Holm p", "verdict").Align("lllrllrrl");
        foreach (SchemeComparison x in all)
        {
            table.Row(x.Metric.ToUpperInvariant(), x.SchemeA, x.SchemeB, Format.Number(x.Test.Ratio), Format.Interval(x.Test.Ratio, x.Test.Ci),
                Format.Interval(x.Test.Ratio, x.FamilyCi), Format.P(x.Test.P), Format.P(x.HolmP), x.Resolved == true ? Reading(x) : x.Verdict);
        }

        b.Append(table.Markdown());
    }

    /// <summary>"A lower (better)" and the like, for a resolved comparison.</summary>
    private static string Reading(SchemeComparison x)
    {
        bool lower = x.Test.Ratio < 1;
        bool better = x.Metric == CyclicAnalysis.StpMetric ? !lower : lower;
        return $"resolved: {x.SchemeA} {(lower ? "lower" : "higher")} ({(better ? "better" : "worse")})";
    }

    /// <summary>The blocked ANOVA and the run's power, per metric.</summary>
    private static void AppendInference(StringBuilder b, CyclicResult result, bool markdown)
    {
        MetricInference[] metrics = result.Inference.Where(x => x.Anova is not null).ToArray();
        if (metrics.Length == 0)
        {
            return;
        }

        var table = new TextTable("metric", "invocations", "scheme F", "scheme p", "invocation F", "invocation p", "invocation share of variation",
            "sd of a paired log difference", "smallest difference resolved", "invocations to resolve the planned difference").Align("lrlrlrrrrl");
        b.Append(markdown
            ? "\n## Blocked analysis and power\n\nRandomized complete blocks: scheme × invocation on the log scale (invocations in which every scheme had the metric). "
                + "The scheme effect is tested against the error left once the invocation effect is taken out.\n\n"
            : "\n");
        foreach (MetricInference x in metrics)
        {
            AnovaSource scheme = x.Anova!.Treatment, block = x.Anova.Block, error = x.Anova.Error;
            string need = x.InvocationsToDetect is int k ? k.ToString(CultureInfo.InvariantCulture) : $"more than {result.Analysis.MaxInvocations}";
            string schemeF = $"F({scheme.DegreesOfFreedom},{error.DegreesOfFreedom}) = {Format.Number(scheme.F, "0.00")}";
            string blockShare = $"{Format.Number(block.PercentOfVariation, "0")} %";
            table.Row(x.Metric.ToUpperInvariant(), x.Invocations, schemeF, Format.P(scheme.P), $"F({block.DegreesOfFreedom},{error.DegreesOfFreedom}) = {Format.Number(block.F, "0.00")}",
                Format.P(block.P), blockShare, Format.Number(x.SdLog, "0.0000"), Format.Difference(x.MinimumDetectable), $"{need} for {Format.Percent(x.Detect, "0.#")}");
            if (!markdown)
            {
                b.Append(CultureInfo.InvariantCulture,
                    $"{x.Metric.ToUpperInvariant()}: schemes {schemeF}, p {Format.P(scheme.P)}; invocations {blockShare} of the variation (p {Format.P(block.P)}). "
                    + $"Smallest difference this run resolves: {Format.Difference(x.MinimumDetectable)}; {Format.Percent(x.Detect, "0.#")} needs {need} invocations.\n");
            }
        }

        b.Append(markdown ? table.Markdown() : string.Empty);
        MetricInference any = metrics[0];
        b.Append(CultureInfo.InvariantCulture,
            $"{(markdown ? "\n" : string.Empty)}Power: {Format.Number(any.Power * 100, "0")} % at α = {Format.Number(any.Alpha, "0.##")} / {any.FamilySize} (Holm's strictest step over the family), by (t(1 − α/2m, n − 1) + t(power, n − 1)) · sd / √n.\n");
    }

    /// <summary>Per invocation: its process, length, scheme order and any C^SP window that did not settle.</summary>
    private static void AppendInvocations(StringBuilder b, CyclicResult result)
    {
        var table = new TextTable("#", "process", "started (UTC)", "elapsed s", "scheme order", "C^SP windows not steady").Align("rrlrll");
        foreach (CyclicInvocation inv in result.Invocations)
        {
            string notSteady = string.Join(", ", inv.Programs.Where(p => !p.SteadyState).Select(p => $"{p.Program} (CV {Format.Percent(p.SpCv)})"));
            table.Row(inv.Invocation, inv.ProcessId, inv.StartedUtc.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture),
                Format.Number(inv.ElapsedSeconds, "0.0"), string.Join(", ", inv.SchemeOrder), notSteady.Length == 0 ? "none" : notSteady);
        }

        b.Append("\n## Invocations\n\n").Append(table.Markdown());
    }

    private static void AppendWarnings(StringBuilder b, CyclicResult result, string bullet)
    {
        var warnings = result.Schemes.SelectMany(s => s.Warnings.Select(w => $"{s.Scheme}: {w}")).ToArray();
        if (warnings.Length == 0)
        {
            return;
        }

        b.Append(bullet.Length > 0 ? "\nWarnings:\n\n" : "\nWarnings:\n").AppendJoin(string.Empty, warnings.Select(w => $"{bullet}{w}\n"));
    }

    /// <summary>What each scheme's schedulers reported at the end of its (last) phase: the arrangement as it ran.</summary>
    private static void AppendSchedulers(StringBuilder b, CyclicResult result)
    {
        if (result.Schemes.All(s => s.Schedulers.Count == 0))
        {
            return;
        }

        b.Append("\n## Schedulers\n\nAs each scheme's schedulers reported them at the end of its last phase. Workers: of the program's scheduler, or "
            + "for a partitioned pool the cores its allocation gave the program then (of the pool's). Seconds are summed over workers.\n\n");
        var table = new TextTable("scheme", "program", "scheduler", "id", "workers", "pinned to", "idle s", "busy s", "core s", "tasks", "steals",
            "moves in/out", "repartitions").Align("lllrrlrrrrrlr");
        foreach (SchemeResult s in result.Schemes)
        {
            for (int i = 0; i < s.Schedulers.Count; i++)
            {
                var st = s.Schedulers[i];
                string workers = st.Workers is { } w ? (st.PoolWorkers is { } pw ? $"{w} of {pw}" : $"{w}") : "n/a";
                string pinned = st.Pinned switch
                {
                    true => st.Processors is { } p ? $"[{string.Join(",", p)}]" : "yes",
                    false => "no",
                    null => "n/a",
                };
                string moves = st.MovesIn is { } mi ? $"{mi}/{st.MovesOut}" : string.Empty;
                table.Row(s.Scheme, i < s.Programs.Count ? s.Programs[i].Program : string.Empty, st.Kind, st.SchedulerId, workers, pinned, Format.Number(st.IdleSeconds),
                    Format.Number(st.BusySeconds), Format.Number(st.CoreSeconds), st.TasksExecuted, st.Steals, moves, st.Repartitions);
            }
        }

        b.Append(table.Markdown());
    }

    /// <summary>
    /// <c>cyclic.csv</c>: one row per number, long format, columns <c>scheme,program,metric,mean,ci99_lo,ci99_hi,rsd,n,basis</c>.
    /// Per program: <c>csp</c>, <c>cmp</c>, <c>ntt</c>, <c>np</c>; per scheme (program empty): <c>antt</c>, <c>mntt</c>,
    /// <c>stp</c>. n counts invocations (basis <c>invocations</c>) or, with one invocation, runs (basis <c>runs</c>).
    /// </summary>
    public static CsvTable Csv(CyclicResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var csv = new CsvTable("scheme", "program", "metric", "mean", "ci99_lo", "ci99_hi", "rsd", "n", "basis");
        string basis = result.Invocations.Count >= 2 ? "invocations" : "runs";
        foreach (SchemeResult s in result.Schemes)
        {
            foreach (ProgramResult p in s.Programs)
            {
                csv.Row(s.Scheme, p.Program, "csp", p.Csp.Mean, p.Csp.Ci99?.Lower, p.Csp.Ci99?.Upper, p.Csp.RelativeStandardDeviation, p.Csp.Count, basis);
                csv.Row(s.Scheme, p.Program, "cmp", p.Cmp?.Mean, p.Cmp?.Ci99?.Lower, p.Cmp?.Ci99?.Upper, p.Cmp?.RelativeStandardDeviation, p.Cmp?.Count, basis);
                foreach (var (name, r) in new[] { ("ntt", p.Ntt), ("np", p.Np) })
                {
                    csv.Row(s.Scheme, p.Program, name, r?.Mean, r?.Ci99?.Lower, r?.Ci99?.Upper, r?.RelativeStandardDeviation, r?.Count, r?.Basis.ToString().ToLowerInvariant());
                }
            }

            foreach (var (name, e) in new[] { ("antt", s.Antt), ("mntt", s.Mntt), ("stp", s.Stp) })
            {
                csv.Row(s.Scheme, string.Empty, name, e?.Mean, e?.Ci99?.Lower, e?.Ci99?.Upper, null, e?.Count, "invocations");
            }
        }

        return csv;
    }

    /// <summary>
    /// The CPU budget and throttling lines (no trailing newline on each), for the table and the report alike: the budget the
    /// schedulers were sized by, then whether the cgroup's throttling counters could be read and, where runs or phases were
    /// throttled, which ones and by how much (their times include that time).
    /// </summary>
    internal static IReadOnlyList<string> ThrottlingLines(CyclicResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        CyclicThrottling? t = result.Throttling;
        List<string> lines = Format.BudgetLines(result.Machine, measured: t is not null);
        if (t is null)
        {
            return lines;
        }

        if (!t.WasThrottled)
        {
            lines.Add("CPU throttling: none (cgroup cpu.stat read around every timed run alone and every multiprogram phase).");
            return lines;
        }

        lines.Add("CPU throttling by the CPU quota: the times of these runs and phases include time the kernel held the process back "
            + "(Θ = throttled core-seconds, cpu.stat), which is not the scheme's or the program's doing:");
        lines.AddRange(t.Alone.Where(a => a.Summary is { WasThrottled: true })
            .Select(a => $"  {MeasureName(a.Measure)} {a.Program} (repetition {a.Repetition}): {Format.Throttled(a.Summary!)}"));
        lines.AddRange(t.Phases.Where(p => p.Phase is { WasThrottled: true }).Select(p => string.Create(CultureInfo.InvariantCulture,
            $"  phase {p.Scheme} (repetition {p.Repetition}): Θ {p.Phase!.ThrottledSeconds:0.000} s, {p.Phase.ThrottledPeriods} of {p.Phase.Periods} periods")));

        return lines;
    }

    /// <summary>The throttling lines as a section of <c>report.md</c>.</summary>
    internal static string ThrottlingMarkdown(CyclicResult result)
    {
        var b = new StringBuilder("\n## CPU budget and throttling\n\n");
        foreach (string line in ThrottlingLines(result))
        {
            // An indented line is an item of the list above it; every other line is a paragraph.
            b.Append(line.StartsWith("  ", StringComparison.Ordinal) ? $"- {line.TrimStart()}\n" : $"{line}\n\n");
        }

        return b.ToString();
    }

    private static string MeasureName(string measure) => measure switch
    {
        "csp" => "C^SP",
        "tseq" => "T_seq",
        "ts" => "T_s",
        "t1" => "T_1",
        _ => measure,
    };
}
