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
/// runs, NTT ± CI and NP ± CI (± is the half-width of the 99 % interval), then ANTT, MNTT, STP per scheme, then one
/// significance line per pair of schemes and metric.
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
        b.Append(CultureInfo.InvariantCulture,
            $"C^SP: {c.SpRuns} runs per program on {c.SpScheme}; ± = half-width of the 99 % confidence interval; times in seconds.\n\n");
        b.Append(CultureInfo.InvariantCulture, $"{"scheme",-22} {"program",-16} {"C^SP",8} {"C^MP",8} {"runs",5}  {"NTT ± CI99",-17} {"NP ± CI99",-17}\n");
        foreach (SchemeResult s in result.Schemes)
        {
            bool first = true;
            foreach (ProgramResult p in s.Programs)
            {
                b.Append(CultureInfo.InvariantCulture,
                    $"{(first ? s.Scheme : string.Empty),-22} {p.Program,-16} {Format.Number(p.Csp.Mean),8} {Format.Number(p.Cmp?.Mean),8} {p.Runs,5}  {Format.PlusMinus(p.Ntt),-17} {Format.PlusMinus(p.Np),-17}\n");
                first = false;
            }
        }

        b.Append('\n');
        b.Append(CultureInfo.InvariantCulture, $"{"scheme",-22} {"ANTT ± CI99 (lower better)",-28} {"MNTT ± CI99",-17} {"STP ± CI99 (higher better)",-28}\n");
        foreach (SchemeResult s in result.Schemes)
        {
            b.Append(CultureInfo.InvariantCulture, $"{s.Scheme,-22} {Format.PlusMinus(s.Antt),-28} {Format.PlusMinus(s.Mntt),-17} {Format.PlusMinus(s.Stp),-28}\n");
        }

        AppendSignificance(b, result, bullet: string.Empty);
        AppendWarnings(b, result, bullet: string.Empty);
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
        b.Append("| | |\n|---|---|\n");
        b.Append(CultureInfo.InvariantCulture, $"| started (UTC) | {result.StartedUtc.UtcDateTime:yyyy-MM-dd HH:mm:ss} |\n");
        b.Append(CultureInfo.InvariantCulture, $"| elapsed | {Format.Number(result.ElapsedSeconds, "0.0")} s |\n");
        b.Append(CultureInfo.InvariantCulture, $"| machine | {m.ProcessorCount} processors, affinity [{string.Join(",", m.Affinity)}], {m.Architecture} |\n");
        b.Append(CultureInfo.InvariantCulture, $"| OS / runtime | {m.OperatingSystem} / {m.Runtime} |\n");
        b.Append(CultureInfo.InvariantCulture, $"| commit | {m.GitCommit ?? "unknown"}{(m.GitDirty == true ? " (uncommitted changes)" : string.Empty)} |\n");
        b.Append(CultureInfo.InvariantCulture, $"| processors used | [{string.Join(",", c.Processors)}] |\n");
        b.Append(CultureInfo.InvariantCulture, $"| C^SP | {c.SpRuns} runs per program after {c.WarmupRuns} warm-up, on {c.SpScheme} |\n");
        b.Append(CultureInfo.InvariantCulture, $"| seed | {c.Seed}; scheme order {(c.ShuffleSchemes ? "shuffled per repetition" : "fixed")} |\n\n");

        b.Append("## Per program\n\nTimes in seconds; ± is the half-width of the 99 % confidence interval.\n\n");
        b.Append("| scheme | program | C^SP | C^MP | runs | discarded | NTT | NP | RSD of runs |\n|---|---|---:|---:|---:|---:|---|---|---:|\n");
        foreach (SchemeResult s in result.Schemes)
        {
            foreach (ProgramResult p in s.Programs)
            {
                b.Append(CultureInfo.InvariantCulture,
                    $"| {s.Scheme} | {p.Program} | {Format.PlusMinus(p.Csp)} | {Format.PlusMinus(p.Cmp)} | {p.Runs} | {p.Discarded} | {Format.PlusMinus(p.Ntt)} | {Format.PlusMinus(p.Np)} | {Percent(p.Ntt?.RelativeStandardDeviation)} |\n");
            }
        }

        b.Append("\n## Per scheme\n\n| scheme | ANTT (lower better) | MNTT | STP (higher better) | repetitions |\n|---|---|---|---|---:|\n");
        foreach (SchemeResult s in result.Schemes)
        {
            b.Append(CultureInfo.InvariantCulture,
                $"| {s.Scheme} | {Format.PlusMinus(s.Antt)} | {Format.PlusMinus(s.Mntt)} | {Format.PlusMinus(s.Stp)} | {s.Antt?.Count ?? 0} |\n");
        }

        b.Append('\n');
        AppendSignificance(b, result, bullet: "- ");
        AppendWarnings(b, result, bullet: "- ");
        b.Append("\n## Method\n\n");
        foreach (var (key, text) in CyclicResult.MethodNotes)
        {
            b.Append(CultureInfo.InvariantCulture, $"- **{key}**: {text}\n");
        }

        b.Append("\n## Schemes\n\n");
        foreach (SchemeResult s in result.Schemes)
        {
            b.Append(CultureInfo.InvariantCulture, $"- **{s.Scheme}**: {s.Description}\n");
        }

        AppendSchedulers(b, result);
        AppendFactored(b, result);
        return b.ToString();
    }

    /// <summary>Issue 7: each program's factored speedups inside the multiprogram phase, or why there are none.</summary>
    private static void AppendFactored(StringBuilder b, CyclicResult result)
    {
        b.Append("\n## Factored speedups in the multiprogram phase\n\n"
            + "P = mean cores the program held (core-seconds / statistics window, from the arrangement's creation to the first run "
            + "stopped at the limit, summed over repetitions); T_MP = mean recorded run; I and F per run; T_s and T_1 (1-worker "
            + "work-stealing scheduler) measured alone once per test. Only the partitioned schemes keep this accounting.\n\n");
        b.Append("| scheme | program | P | T_MP s | T_s s | T_1 s | I s | F s | linear | maximal | idle-specific | inflation-specific | actual |\n");
        b.Append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        foreach (SchemeResult s in result.Schemes)
        {
            foreach (ProgramResult p in s.Programs)
            {
                if (p.Factored?.Point is { } f && p.Factored.Accounting is { } a)
                {
                    FactoredSpeedups x = f.Speedups;
                    b.Append(CultureInfo.InvariantCulture,
                        $"| {s.Scheme} | {p.Program} | {Format.Number(f.P, "0.00")} | {Format.Number(f.Tp)} | {Format.Number(a.SequentialSeconds)} | {Format.Number(a.OneWorkerSeconds)} | {Format.Number(f.Ip)} | {Format.Number(f.Fp)} | {Format.Number(x.Linear, "0.00")} | {Format.Number(x.Maximal, "0.00")} | {Format.Number(x.IdleSpecific, "0.00")} | {Format.Number(x.InflationSpecific, "0.00")} | {Format.Number(x.Actual, "0.00")} |\n");
                }
                else
                {
                    string reason = p.Factored?.Reason ?? MultiprogramFactored.NoAccountingReason;
                    b.Append(CultureInfo.InvariantCulture, $"| {s.Scheme} | {p.Program} | n/a: {reason} | | | | | | | | | | |\n");
                }
            }
        }
    }

    private static string Title(CyclicPlanRecord c) =>
        string.Create(CultureInfo.InvariantCulture,
            $"{(c.Kind == "symmetric" ? "Symmetric" : "Cyclic")} test: {string.Join(", ", c.Programs)}; size {c.Size}; {Format.Number(c.DurationSeconds, "0.#")} s per scheme; {c.Repeat} repetition{(c.Repeat == 1 ? string.Empty : "s")}; {c.Processors.Count} cores.");

    private static void AppendSignificance(StringBuilder b, CyclicResult result, string bullet)
    {
        if (result.Comparisons.Count == 0)
        {
            return;
        }

        if (bullet.Length == 0 && result.Comparisons.All(c => c.Test.PValue is null))
        {
            // The console table says it once rather than once per pair and metric (report.md keeps every line).
            b.Append(CultureInfo.InvariantCulture,
                $"\nSignificance: {WelchTest.NotEnoughRepetitions} for Welch's t-test between any two schemes ({result.Configuration.Repeat} repetition{(result.Configuration.Repeat == 1 ? string.Empty : "s")}); run with --repeat 2 or more.\n");
            return;
        }

        b.Append(CultureInfo.InvariantCulture, $"\nSignificance (Welch's t-test over {result.Configuration.Repeat} repetition{(result.Configuration.Repeat == 1 ? string.Empty : "s")}, two-sided, 99 %):\n");
        if (bullet.Length > 0)
        {
            b.Append('\n');
        }

        foreach (SchemeComparison cmp in result.Comparisons)
        {
            var t = cmp.Test;
            string detail = t.PValue is { } p
                ? string.Create(CultureInfo.InvariantCulture, $" (difference {Format.Number(t.Difference)}, t = {Format.Number(t.T, "0.00")}, df = {Format.Number(t.DegreesOfFreedom, "0.0")}, p = {Format.Number(p, "0.0000")})")
                : string.Empty;
            b.Append(CultureInfo.InvariantCulture, $"{bullet}{cmp.Metric.ToUpperInvariant()} {cmp.SchemeA} vs {cmp.SchemeB}: {t.Verdict}{detail}\n");
        }
    }

    private static void AppendWarnings(StringBuilder b, CyclicResult result, string bullet)
    {
        var warnings = result.Schemes.SelectMany(s => s.Warnings.Select(w => $"{s.Scheme}: {w}")).ToArray();
        if (warnings.Length == 0)
        {
            return;
        }

        b.Append("\nWarnings:\n");
        if (bullet.Length > 0)
        {
            b.Append('\n');
        }

        foreach (string w in warnings)
        {
            b.Append(CultureInfo.InvariantCulture, $"{bullet}{w}\n");
        }
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
        b.Append("| scheme | program | scheduler | id | workers | pinned to | idle s | busy s | core s | tasks | steals | moves in/out | repartitions |\n");
        b.Append("|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|---|---:|\n");
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
                b.Append(CultureInfo.InvariantCulture,
                    $"| {s.Scheme} | {(i < s.Programs.Count ? s.Programs[i].Program : string.Empty)} | {st.Kind} | {st.SchedulerId} | {workers} | {pinned} | {Format.Number(st.IdleSeconds)} | {Format.Number(st.BusySeconds)} | {Format.Number(st.CoreSeconds)} | {st.TasksExecuted} | {st.Steals} | {moves} | {st.Repartitions} |\n");
            }
        }
    }

    /// <summary>
    /// <c>cyclic.csv</c>: one row per number, long format, columns <c>scheme,program,metric,mean,ci99_lo,ci99_hi,sd,rsd,n</c>.
    /// Per program: <c>csp</c>, <c>cmp</c>, <c>ntt</c>, <c>np</c> (n = recorded runs); per scheme (program empty):
    /// <c>antt</c>, <c>mntt</c>, <c>stp</c> (n = repetitions).
    /// </summary>
    public static CsvTable Csv(CyclicResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var csv = new CsvTable("scheme", "program", "metric", "mean", "ci99_lo", "ci99_hi", "sd", "rsd", "n");
        foreach (SchemeResult s in result.Schemes)
        {
            foreach (ProgramResult p in s.Programs)
            {
                Row(csv, s.Scheme, p.Program, "csp", p.Csp);
                Row(csv, s.Scheme, p.Program, "cmp", p.Cmp);
                csv.Row(s.Scheme, p.Program, "ntt", p.Ntt?.Mean, p.Ntt?.Ci99?.Lower, p.Ntt?.Ci99?.Upper, p.Ntt?.StandardDeviation, p.Ntt?.RelativeStandardDeviation, p.Ntt?.NumeratorCount);
                csv.Row(s.Scheme, p.Program, "np", p.Np?.Mean, p.Np?.Ci99?.Lower, p.Np?.Ci99?.Upper, p.Np?.StandardDeviation, p.Np?.RelativeStandardDeviation, p.Np?.NumeratorCount);
            }

            Row(csv, s.Scheme, string.Empty, "antt", s.Antt);
            Row(csv, s.Scheme, string.Empty, "mntt", s.Mntt);
            Row(csv, s.Scheme, string.Empty, "stp", s.Stp);
        }

        return csv;
    }

    private static void Row(CsvTable csv, string scheme, string program, string metric, Estimate? e) =>
        csv.Row(scheme, program, metric, e?.Mean, e?.Ci99?.Lower, e?.Ci99?.Upper, e?.StandardDeviation, e?.RelativeStandardDeviation, e?.Count);

    private static string Percent(double? value) => value is { } v ? Format.Number(v * 100, "0.0") + " %" : "n/a";
}
