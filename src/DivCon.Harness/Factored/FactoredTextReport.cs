using System.Globalization;
using System.Text;
using DivCon.Metrics.Factored;
using DivCon.Metrics.Results;

namespace DivCon.Harness.Factored;

/// <summary>The readable table and the CSV of a <see cref="FactoredResult"/>.</summary>
public static class FactoredTextReport
{
    /// <summary>One table per program: times in seconds, then the six curves.</summary>
    public static string Table(FactoredResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var b = new StringBuilder();
        b.AppendLine(CultureInfo.InvariantCulture, $"Factored speedups (size {result.Size}, {result.Settings.Runs} runs per point, means; seconds)");
        if (result.Stealing is { } stealing)
        {
            string machine = stealing.DetectedCacheGroups is int g ? $" (this machine: {g} last-level cache group(s))" : string.Empty;
            b.AppendLine(CultureInfo.InvariantCulture, $"Stealing: {stealing.Scope}, groups {stealing.Groups}{machine}");
        }

        foreach (FactoredProgramResult program in result.Programs)
        {
            b.AppendLine();
            b.AppendLine(CultureInfo.InvariantCulture,
                $"{program.Program}: T_s {N(program.Ts)}  T_1 {N(program.T1)}  T_elision {N(program.Telision)}");
            if (result.ProgramSettings?.GetValueOrDefault(program.Program) is { } settings)
            {
                b.AppendLine(CultureInfo.InvariantCulture, $"  ({settings})");
            }

            b.AppendLine("   P      T_P      I_P      W_P      F_P | linear maximal idle-sp infl-sp  actual elision");
            foreach (FactoredPoint p in program.Points)
            {
                FactoredSpeedups s = p.Speedups;
                b.AppendLine(CultureInfo.InvariantCulture,
                    $"{p.P,4:0.##} {N(p.Tp),8} {N(p.Ip),8} {N(p.Wp),8} {N(p.Fp),8} | {N(s.Linear, "0.00"),6} {N(s.Maximal, "0.00"),7} {N(s.IdleSpecific, "0.00"),7} {N(s.InflationSpecific, "0.00"),7} {N(s.Actual, "0.00"),7} {N(s.Elision, "0.00"),7}");
            }

            if (program.Points.Any(p => p.Steals is not null))
            {
                // Seed 002's split of I_P next to the inflation F_P: overhead (successful steal sweeps) + waiting = I_P.
                b.AppendLine("   P      F_P      I_P  overhead  waiting |   steals    local   remote");
                foreach (FactoredPoint p in program.Points)
                {
                    RunStealStatistics? t = p.Steals;
                    b.AppendLine(CultureInfo.InvariantCulture,
                        $"{p.P,4:0.##} {N(p.Fp),8} {N(p.Ip),8} {N(t?.SchedulingOverheadSeconds, "0.000000"),9} {N(t?.WaitingSeconds),8} | {N(t?.Steals, "0.#"),8} {N(t?.LocalSteals, "0.#"),8} {N(t?.RemoteSteals, "0.#"),8}");
                }
            }
        }

        return b.ToString();
    }

    /// <summary>The CSV: one row per program and P.</summary>
    public static CsvTable Csv(FactoredResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var csv = new CsvTable("program", "p", "ts", "t1", "telision", "tp", "ip", "wp", "fp", "linear", "maximal", "idleSpecific",
            "inflationSpecific", "actual", "elision", "steals", "localSteals", "remoteSteals", "schedulingOverhead", "waiting");
        foreach (FactoredProgramResult program in result.Programs)
        {
            foreach (FactoredPoint p in program.Points)
            {
                FactoredSpeedups s = p.Speedups;
                RunStealStatistics? t = p.Steals;
                csv.Row(program.Program, p.P, program.Ts, program.T1, program.Telision, p.Tp, p.Ip, p.Wp, p.Fp,
                    s.Linear, s.Maximal, s.IdleSpecific, s.InflationSpecific, s.Actual, s.Elision,
                    t?.Steals, t?.LocalSteals, t?.RemoteSteals, t?.SchedulingOverheadSeconds, t?.WaitingSeconds);
            }
        }

        return csv;
    }

    private static string N(double? value, string format = "0.000") =>
        value is { } v && double.IsFinite(v) ? v.ToString(format, CultureInfo.InvariantCulture) : "n/a";
}
