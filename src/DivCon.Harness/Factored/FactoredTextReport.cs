using System.Globalization;
using System.Text;
using DivCon.Harness.Reporting;
using DivCon.Metrics.Factored;
using DivCon.Metrics.Results;
using DivCon.Metrics.Throttling;

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
        b.AppendLine("F_P is the leftover P·T_P − I_P − T_1 (− Θ_P + Θ_1 where throttled): the identity holds by construction, and F_P carries "
            + "every error of T_P, I_P and T_1 (a negative F_P is such a bias, not less work). [ ] = 99 % bootstrap interval over the rounds.");
        if (result.Stealing is { } stealing)
        {
            string machine = stealing.DetectedCacheGroups is int g ? $" (this machine: {g} last-level cache group(s))" : string.Empty;
            b.AppendLine(CultureInfo.InvariantCulture, $"Stealing: {stealing.Scope}, groups {stealing.Groups}{machine}");
        }

        foreach (string line in ThrottlingHeader(result))
        {
            b.AppendLine(line);
        }

        foreach (FactoredProgramResult program in result.Programs)
        {
            b.AppendLine();
            b.AppendLine(CultureInfo.InvariantCulture,
                $"{program.Program}: T_s {Format.Number(program.Ts)}  T_1 {Format.Number(program.T1)}  T_elision {Format.Number(program.Telision)}");
            if (result.ProgramSettings?.GetValueOrDefault(program.Program) is { } settings)
            {
                b.AppendLine(CultureInfo.InvariantCulture, $"  ({settings})");
            }

            string baselines = string.Join("; ", new[] { ("T_s", program.Samples.SequentialThrottling), ("T_elision", program.Samples.ElisionThrottling) }
                .Where(x => ThrottlingSummary.Of(x.Item2) is { WasThrottled: true })
                .Select(x => $"{x.Item1} {Format.Throttled(ThrottlingSummary.Of(x.Item2)!)}"));
            if (baselines.Length > 0)
            {
                b.AppendLine(CultureInfo.InvariantCulture, $"  throttled by the CPU quota: {baselines}");
            }

            b.AppendLine("   P      T_P      I_P      W_P      F_P | linear maximal idle-sp infl-sp  actual elision");
            foreach (FactoredPoint p in program.Points)
            {
                FactoredSpeedups s = p.Speedups;
                string throttled = p.Throttling is { WasThrottled: true } t ? "  throttled: " + Format.Throttled(t) : string.Empty;
                b.AppendLine(CultureInfo.InvariantCulture,
                    $"{p.P,4:0.##} {Format.Number(p.Tp),8} {Format.Number(p.Ip),8} {Format.Number(p.Wp),8} {Format.Number(p.Fp),8} | {Format.Number(s.Linear, "0.00"),6} {Format.Number(s.Maximal, "0.00"),7} {Format.Number(s.IdleSpecific, "0.00"),7} {Format.Number(s.InflationSpecific, "0.00"),7} {Format.Number(s.Actual, "0.00"),7} {Format.Number(s.Elision, "0.00"),7}{throttled}");
            }

            if (program.Points.Any(p => p.Ci99 is not null))
            {
                b.AppendLine(CultureInfo.InvariantCulture, $"   P  99 % intervals over {program.Points.First(p => p.Ci99 is not null).Ci99!.Rounds} rounds");
                foreach (FactoredPoint p in program.Points)
                {
                    FactoredIntervals? ci = p.Ci99;
                    b.AppendLine(CultureInfo.InvariantCulture,
                        $"{p.P,4:0.##}  F_P {Format.Interval(p.Fp, ci?.Fp, "0.000")}  maximal {Format.Interval(p.Speedups.Maximal, ci?.Maximal, "0.00")}  idle-sp {Format.Interval(p.Speedups.IdleSpecific, ci?.IdleSpecific, "0.00")}  infl-sp {Format.Interval(p.Speedups.InflationSpecific, ci?.InflationSpecific, "0.00")}  actual {Format.Interval(p.Speedups.Actual, ci?.Actual, "0.00")}");
                }
            }

            if (program.Points.Any(p => p.Steals is not null))
            {
                // Seed 002's split of I_P next to the inflation F_P: overhead (successful steal sweeps) + waiting = I_P.
                b.AppendLine("   P      F_P      I_P  overhead  waiting |   steals    local   remote");
                foreach (FactoredPoint p in program.Points)
                {
                    RunStealStatistics? t = p.Steals;
                    b.AppendLine(CultureInfo.InvariantCulture,
                        $"{p.P,4:0.##} {Format.Number(p.Fp),8} {Format.Number(p.Ip),8} {Format.Number(t?.SchedulingOverheadSeconds, "0.000000"),9} {Format.Number(t?.WaitingSeconds),8} | {Format.Number(t?.Steals, "0.#"),8} {Format.Number(t?.LocalSteals, "0.#"),8} {Format.Number(t?.RemoteSteals, "0.#"),8}");
                }
            }
        }

        return b.ToString();
    }

    /// <summary>
    /// What the table says about throttling before the programs: the CPU budget of the run, whether the counters could
    /// be read, and, where they were, how throttled time enters the decomposition.
    /// </summary>
    public static IReadOnlyList<string> ThrottlingHeader(FactoredResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        bool measured = result.Programs.Any(p => p.Points.Any(x => x.Throttling is not null) || p.Samples.SequentialThrottling is not null);
        List<string> lines = Format.BudgetLines(result.Machine, measured);
        if (!measured)
        {
            return lines;
        }

        bool throttled = result.Programs.Any(p => p.Points.Any(x => x.Throttling is { WasThrottled: true })
            || ThrottlingSummary.Of(p.Samples.SequentialThrottling) is { WasThrottled: true }
            || ThrottlingSummary.Of(p.Samples.ElisionThrottling) is { WasThrottled: true });
        lines.Add(throttled
            ? "CPU throttling: some runs were throttled by the CPU quota (marked below): their times include time the kernel held the workers back."
            : "CPU throttling: no run was throttled (cgroup cpu.stat read around every run).");
        lines.Add("F_P excludes throttled time: Θ_P (throttled core-seconds per run, cpu.stat) is its own term, subtracted from the leftover: "
            + "W_P = P·T_P − I_P − Θ_P, F_P = W_P − (T_1 − Θ_1).");
        return lines;
    }

    /// <summary>The CSV: one row per program and P.</summary>
    public static CsvTable Csv(FactoredResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var csv = new CsvTable("program", "p", "ts", "t1", "telision", "tp", "ip", "wp", "fp", "linear", "maximal", "idleSpecific",
            "inflationSpecific", "actual", "elision", "steals", "localSteals", "remoteSteals", "schedulingOverhead", "waiting",
            "fp_ci99_lo", "fp_ci99_hi", "maximal_ci99_lo", "maximal_ci99_hi", "idleSpecific_ci99_lo", "idleSpecific_ci99_hi",
            "inflationSpecific_ci99_lo", "inflationSpecific_ci99_hi", "actual_ci99_lo", "actual_ci99_hi", "elision_ci99_lo", "elision_ci99_hi",
            "throttledRuns", "throttledSeconds", "throttledPeriods");
        foreach (FactoredProgramResult program in result.Programs)
        {
            foreach (FactoredPoint p in program.Points)
            {
                FactoredSpeedups s = p.Speedups;
                RunStealStatistics? t = p.Steals;
                ThrottlingSummary? q = p.Throttling;
                FactoredIntervals? ci = p.Ci99;
                csv.Row(program.Program, p.P, program.Ts, program.T1, program.Telision, p.Tp, p.Ip, p.Wp, p.Fp,
                    s.Linear, s.Maximal, s.IdleSpecific, s.InflationSpecific, s.Actual, s.Elision,
                    t?.Steals, t?.LocalSteals, t?.RemoteSteals, t?.SchedulingOverheadSeconds, t?.WaitingSeconds,
                    ci?.Fp?.Lower, ci?.Fp?.Upper, ci?.Maximal?.Lower, ci?.Maximal?.Upper, ci?.IdleSpecific?.Lower, ci?.IdleSpecific?.Upper,
                    ci?.InflationSpecific?.Lower, ci?.InflationSpecific?.Upper, ci?.Actual?.Lower, ci?.Actual?.Upper, ci?.Elision?.Lower, ci?.Elision?.Upper,
                    q?.ThrottledRuns, q?.MeanThrottledSeconds, q?.MeanThrottledPeriods);
            }
        }

        return csv;
    }
}
