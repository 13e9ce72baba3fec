using DivCon.Harness.Experiments;
using DivCon.Metrics.Results;

namespace DivCon.Harness.Reporting;

/// <summary>The tables and CSVs of the isolated experiments (scalability, granularity, phases), invariant culture.</summary>
internal static class ExperimentReports
{
    /// <summary>Per program, selection and P: T_s, T_P, speedup and the processors.</summary>
    public static string Table(ScalabilityResult r)
    {
        var table = new TextTable("program", "selection", "P", "T_s (s)", "T_P (s)", "speedup", "processors");
        foreach (var (p, c, pt) in Points(r))
        {
            table.Row(p.Program, ScalabilityResult.Name(c.Selection), pt.P, Format.Number(p.Ts.Mean, "0.0000"), Format.Number(pt.Tp.Mean, "0.0000"),
                Format.Number(pt.Speedup, "0.00"), string.Join(",", pt.Processors) + (pt.Pinned ? "" : " (unpinned)"));
        }

        return table.Text();
    }

    /// <summary>One row per program, selection and P.</summary>
    public static CsvTable Csv(ScalabilityResult r)
    {
        var csv = new CsvTable("program", "selection", "p", "processors", "pinned", "ts_mean", "tp_mean", "tp_sd", "tp_ci99_lo", "tp_ci99_hi", "speedup");
        foreach (var (p, c, pt) in Points(r))
        {
            csv.Row(p.Program, ScalabilityResult.Name(c.Selection), pt.P, string.Join(' ', pt.Processors), pt.Pinned, p.Ts.Mean, pt.Tp.Mean,
                pt.Tp.Summary.StandardDeviation, pt.Tp.Summary.Ci99?.Lower, pt.Tp.Summary.Ci99?.Upper, pt.Speedup);
        }

        return csv;
    }

    /// <summary>Per program and granularity: the divisor, granularity, muscles per core, time and T_s.</summary>
    public static string Table(GranularityResult r)
    {
        var table = new TextTable("program", "size/gran", "granularity", "muscles/core", "time (s)", "T_s (s)");
        foreach (var (p, pt) in r.Programs.SelectMany(p => p.Points.Select(pt => (p, pt))))
        {
            table.Row(p.Program, pt.Divisor, pt.Granularity, Format.Number(pt.MusclesPerCore, "0.###"), Format.Number(pt.Time.Mean, "0.0000"), Format.Number(p.Ts.Mean, "0.0000"));
        }

        return table.Text();
    }

    /// <summary>One row per program and granularity.</summary>
    public static CsvTable Csv(GranularityResult r)
    {
        var csv = new CsvTable("program", "problem_size", "divisor", "granularity", "muscles_per_core", "time_mean", "time_sd", "time_ci99_lo", "time_ci99_hi", "ts_mean");
        foreach (var (p, pt) in r.Programs.SelectMany(p => p.Points.Select(pt => (p, pt))))
        {
            csv.Row(p.Program, p.ProblemSize, pt.Divisor, pt.Granularity, pt.MusclesPerCore, pt.Time.Mean, pt.Time.Summary.StandardDeviation,
                pt.Time.Summary.Ci99?.Lower, pt.Time.Summary.Ci99?.Upper, p.Ts.Mean);
        }

        return csv;
    }

    /// <summary>Per program and recursion level: split, execute and merge counts and cumulative seconds per run.</summary>
    public static string Table(PhasesResult r)
    {
        var table = new TextTable("program", "level", "splits", "split (s)", "executes", "execute (s)", "merges", "merge (s)");
        foreach (var (p, l) in r.Programs.SelectMany(p => p.Levels.Select(l => (p, l))))
        {
            table.Row(p.Program, l.Level, Format.Number(l.SplitCount, "0.#"), Format.Number(l.SplitSeconds, "0.000000"), Format.Number(l.ExecuteCount, "0.#"),
                Format.Number(l.ExecuteSeconds, "0.000000"), Format.Number(l.MergeCount, "0.#"), Format.Number(l.MergeSeconds, "0.000000"));
        }

        return table.Text();
    }

    /// <summary>One row per program and level.</summary>
    public static CsvTable Csv(PhasesResult r)
    {
        var csv = new CsvTable("program", "level", "split_count", "split_seconds", "execute_count", "execute_seconds", "merge_count", "merge_seconds");
        foreach (var (p, l) in r.Programs.SelectMany(p => p.Levels.Select(l => (p, l))))
        {
            csv.Row(p.Program, l.Level, l.SplitCount, l.SplitSeconds, l.ExecuteCount, l.ExecuteSeconds, l.MergeCount, l.MergeSeconds);
        }

        return csv;
    }

    private static IEnumerable<(ScalabilityProgramResult Program, ScalabilityCurve Curve, ScalabilityCorePoint Point)> Points(ScalabilityResult r) =>
        r.Programs.SelectMany(p => p.Curves.SelectMany(c => c.Points.Select(pt => (p, c, pt))));
}
