using System.Globalization;
using System.Text;
using static DivCon.Simulation.SimulationReport;

namespace DivCon.Simulation.Validation;

/// <summary>The table (stdout and <c>validate.md</c>) and the CSV of a <see cref="ValidationFile"/>.</summary>
public static class ValidationReport
{
    /// <summary>Markdown tables: isolated T_P per program and P, then per workload NTT, ANTT and STP per scheme; a miss shows its error in bold.</summary>
    public static string Markdown(ValidationFile file)
    {
        ArgumentNullException.ThrowIfNull(file);
        ValidationSettings s = file.Settings;
        var sb = new StringBuilder();
        sb.Append(F($"# Simulator vs measurement ({s.Size}, {s.Cores} cores, memory contention β = {s.Parameters.MemoryContention:0.####})\n\n"));
        sb.Append(F($"Isolated: T_P in seconds, mean of {s.Runs} runs each (target: T_1 and T_2 within {SimulationValidation.IsolatedTarget:P0}).\n\n"));
        sb.Append("| program | P | measured s | simulated s | error | target |\n|---|---:|---:|---:|---:|---|\n");
        foreach (IsolatedComparison r in file.Isolated)
        {
            sb.Append(F($"| {r.Program} | {r.P} | {r.MeasuredSeconds:0.0000} | {r.SimulatedSeconds:0.0000} | {Error(r.RelativeError, r.Met)} | {Target(r.Target, r.Met)} |\n"));
        }

        foreach (var workload in file.Cyclic.GroupBy(r => r.Workload))
        {
            MeasuredWorkload measured = file.MeasuredCyclic.First(w => w.Workload == workload.Key);
            sb.Append(F($"\nCyclic, {workload.Key} ({string.Join(", ", measured.Programs)}): {s.DurationSeconds:0.###} s per scheme, C^SP from {s.SpRuns} runs, one repetition (target: NTT and ANTT within {SimulationValidation.CyclicTarget:P0} at 2 cores).\n\n"));
            sb.Append("| scheme | metric | measured | simulated | error | target |\n|---|---|---:|---:|---:|---|\n");
            foreach (CyclicComparison r in workload)
            {
                string metric = r.Program is null ? r.Metric.ToUpperInvariant() : F($"NTT {r.Program}");
                sb.Append(F($"| {r.Scheme} | {metric} | {Num(r.Measured)} | {Num(r.Simulated)} | {Error(r.RelativeError, r.Met)} | {Target(r.Target, r.Met)} |\n"));
            }
        }

        var isolated = file.Isolated.Where(r => r.Met is not null).ToArray();
        var cyclic = file.Cyclic.Where(r => r.Met is not null).ToArray();
        sb.Append(F($"\nTargets met: isolated {isolated.Count(r => r.Met == true)}/{isolated.Length}, "))
            .Append(F($"cyclic {cyclic.Count(r => r.Met == true)}/{cyclic.Length}.\n"));
        return sb.ToString();
    }

    /// <summary>One row per comparison: kind, workload, scheme, program, metric or P, measured, simulated, error, target, met.</summary>
    public static CsvTable Csv(ValidationFile file)
    {
        ArgumentNullException.ThrowIfNull(file);
        var csv = new CsvTable("kind", "workload", "scheme", "program", "metric", "p", "measured", "simulated", "relative_error", "target", "met");
        foreach (IsolatedComparison r in file.Isolated)
        {
            csv.Row("isolated", null, null, r.Program, "tp", r.P, r.MeasuredSeconds, r.SimulatedSeconds, r.RelativeError, r.Target, r.Met);
        }

        foreach (CyclicComparison r in file.Cyclic)
        {
            csv.Row("cyclic", r.Workload, r.Scheme, r.Program, r.Metric, file.Settings.Cores, r.Measured, r.Simulated, r.RelativeError, r.Target, r.Met);
        }

        return csv;
    }

    internal static string Error(double? error, bool? met) => error is not { } e
        ? "n/a"
        : met == false ? $"**{Percent(e)}**" : Percent(e);

    /// <summary>A relative error as a signed percentage with one decimal (<c>+2.5 %</c>, <c>-0.3 %</c>, <c>0.0 %</c>).</summary>
    internal static string Percent(double relative)
    {
        double value = Math.Round(relative * 100, 1);
        return (value == 0 ? 0 : value).ToString("+0.0;-0.0;0.0", CultureInfo.InvariantCulture) + " %";
    }

    internal static string Target(double? target, bool? met) => target is not { } t
        ? string.Empty
        : F($"±{t * 100:0} % {(met == true ? "met" : "missed")}");
}
