using System.Globalization;
using System.Text;
using DivCon.Harness.Experiments;
using DivCon.Metrics.Results;

namespace DivCon.Harness.Reporting;

/// <summary>The tables and CSVs of the isolated experiments (scalability, granularity, phases), invariant culture.</summary>
public static class ExperimentReports
{
    /// <summary>Per program, selection and P: T_s, T_P, speedup and the processors.</summary>
    public static string Table(ScalabilityResult r)
    {
        ArgumentNullException.ThrowIfNull(r);
        var sb = new StringBuilder();
        sb.AppendLine(CultureInfo.InvariantCulture, $"{"program",-14} {"selection",-11} {"P",3} {"T_s (s)",10} {"T_P (s)",10} {"speedup",8}  processors");
        foreach (var (p, c, pt) in Points(r))
        {
            sb.AppendLine(CultureInfo.InvariantCulture,
                $"{p.Program,-14} {ScalabilityResult.Name(c.Selection),-11} {pt.P,3} {p.Ts.Mean,10:0.0000} {pt.Tp.Mean,10:0.0000} {pt.Speedup,8:0.00}  {string.Join(",", pt.Processors)}{(pt.Pinned ? "" : " (unpinned)")}");
        }

        return sb.ToString();
    }

    /// <summary>One row per program, selection and P.</summary>
    public static CsvTable Csv(ScalabilityResult r)
    {
        ArgumentNullException.ThrowIfNull(r);
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
        ArgumentNullException.ThrowIfNull(r);
        var sb = new StringBuilder();
        sb.AppendLine(CultureInfo.InvariantCulture, $"{"program",-14} {"size/gran",10} {"granularity",12} {"muscles/core",12} {"time (s)",10} {"T_s (s)",10}");
        foreach (GranularityProgramResult p in r.Programs)
        {
            foreach (GranularityPoint pt in p.Points)
            {
                sb.AppendLine(CultureInfo.InvariantCulture,
                    $"{p.Program,-14} {pt.Divisor,10} {pt.Granularity,12} {pt.MusclesPerCore,12:0.###} {pt.Time.Mean,10:0.0000} {p.Ts.Mean,10:0.0000}");
            }
        }

        return sb.ToString();
    }

    /// <summary>One row per program and granularity.</summary>
    public static CsvTable Csv(GranularityResult r)
    {
        ArgumentNullException.ThrowIfNull(r);
        var csv = new CsvTable("program", "problem_size", "divisor", "granularity", "muscles_per_core", "time_mean", "time_sd", "time_ci99_lo", "time_ci99_hi", "ts_mean");
        foreach (GranularityProgramResult p in r.Programs)
        {
            foreach (GranularityPoint pt in p.Points)
            {
                csv.Row(p.Program, p.ProblemSize, pt.Divisor, pt.Granularity, pt.MusclesPerCore, pt.Time.Mean, pt.Time.Summary.StandardDeviation,
                    pt.Time.Summary.Ci99?.Lower, pt.Time.Summary.Ci99?.Upper, p.Ts.Mean);
            }
        }

        return csv;
    }

    /// <summary>Per program and recursion level: split, execute and merge counts and cumulative seconds per run.</summary>
    public static string Table(PhasesResult r)
    {
        ArgumentNullException.ThrowIfNull(r);
        var sb = new StringBuilder();
        sb.AppendLine(CultureInfo.InvariantCulture,
            $"{"program",-14} {"level",5} {"splits",8} {"split (s)",10} {"executes",8} {"execute (s)",11} {"merges",8} {"merge (s)",10}");
        foreach (PhaseProgramResult p in r.Programs)
        {
            foreach (PhaseLevel l in p.Levels)
            {
                sb.AppendLine(CultureInfo.InvariantCulture,
                    $"{p.Program,-14} {l.Level,5} {l.SplitCount,8:0.#} {l.SplitSeconds,10:0.000000} {l.ExecuteCount,8:0.#} {l.ExecuteSeconds,11:0.000000} {l.MergeCount,8:0.#} {l.MergeSeconds,10:0.000000}");
            }
        }

        return sb.ToString();
    }

    /// <summary>One row per program and level.</summary>
    public static CsvTable Csv(PhasesResult r)
    {
        ArgumentNullException.ThrowIfNull(r);
        var csv = new CsvTable("program", "level", "split_count", "split_seconds", "execute_count", "execute_seconds", "merge_count", "merge_seconds");
        foreach (PhaseProgramResult p in r.Programs)
        {
            foreach (PhaseLevel l in p.Levels)
            {
                csv.Row(p.Program, l.Level, l.SplitCount, l.SplitSeconds, l.ExecuteCount, l.ExecuteSeconds, l.MergeCount, l.MergeSeconds);
            }
        }

        return csv;
    }

    private static IEnumerable<(ScalabilityProgramResult Program, ScalabilityCurve Curve, ScalabilityCorePoint Point)> Points(ScalabilityResult r) =>
        r.Programs.SelectMany(p => p.Curves.SelectMany(c => c.Points.Select(pt => (p, c, pt))));
}
