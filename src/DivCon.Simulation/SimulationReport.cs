using System.Globalization;
using System.Text;

namespace DivCon.Simulation;

/// <summary>The table, CSV and Markdown summary of a simulation (the JSON is the <see cref="SimulationFile"/> record).</summary>
public static class SimulationReport
{
    /// <summary>One row per (workload, cores, scheme, program).</summary>
    public static CsvTable Csv(SimulationFile file)
    {
        ArgumentNullException.ThrowIfNull(file);
        var csv = new CsvTable("workload", "cores", "scheme", "program", "csp", "cmp", "runs", "ntt", "ntt_ci99_lower", "ntt_ci99_upper", "np", "antt", "mntt", "stp");
        foreach (var (r, s, p) in file.Results.SelectMany(r => r.Schemes.SelectMany(s => s.Programs.Select(p => (r, s, p)))))
        {
            csv.Row(r.Workload, r.Cores, s.Scheme, p.Program, p.Csp.Mean, p.Cmp?.Mean, p.Runs, p.Ntt?.Mean, p.Ntt?.Ci99?.Lower, p.Ntt?.Ci99?.Upper,
                p.Np?.Mean, s.Antt?.Mean, s.Mntt?.Mean, s.Stp?.Mean);
        }

        return csv;
    }

    /// <summary>
    /// The summary table (<c>report.md</c>): per workload, one row per scheme and one ANTT / STP column pair per core
    /// count, best ANTT per column in bold.
    /// </summary>
    public static string Markdown(SimulationFile file)
    {
        ArgumentNullException.ThrowIfNull(file);
        var sb = new StringBuilder("# Simulated cyclic test\n\n");
        foreach (var workload in file.Results.GroupBy(r => r.Workload))
        {
            var columns = workload.OrderBy(r => r.Cores).ToArray();
            sb.Append(CultureInfo.InvariantCulture, $"### {workload.Key}: {string.Join(", ", columns[0].Isolated.Select(p => p.Program))}\n\n| scheme |")
                .AppendJoin(string.Empty, columns.Select(c => F($" ANTT {c.Cores}c | STP {c.Cores}c |")));
            sb.Append("\n|---|").Append(string.Concat(Enumerable.Repeat("---:|---:|", columns.Length))).Append('\n');
            foreach (string scheme in columns[0].Schemes.Select(s => s.Scheme))
            {
                sb.Append(CultureInfo.InvariantCulture, $"| {scheme} |");
                foreach (SimulationResult c in columns)
                {
                    SchemeResult s = c.Schemes.First(x => x.Scheme == scheme);
                    double? best = c.Schemes.Min(x => x.Antt?.Mean);
                    string antt = s.Antt?.Mean is { } a ? (a == best ? F($"**{a:0.000}**") : F($"{a:0.000}")) : "n/a";
                    sb.Append(CultureInfo.InvariantCulture, $" {antt} | {Num(s.Stp?.Mean)} |");
                }

                sb.Append('\n');
            }

            foreach (SimulationResult c in columns.Where(c => c.ScalabilitySource == "online"))
            {
                sb.Append(CultureInfo.InvariantCulture, $"\nScalability at {c.Cores} cores, model: {string.Join(" ", c.Isolated.Select(i => F($"{i.Scalability:0.00}")))}")
                    .Append(OnlineLines(c, "  \n")).Append('\n');
            }

            sb.Append('\n');
        }

        return sb.ToString();
    }

    // Per partitioned scheme of an online run, each program's final online estimate (beside the model's scalability).
    private static string OnlineLines(SimulationResult result, string separator)
        => string.Concat(result.Counters.Where(c => c.Value.OnlineScalability is not null)
            .Select(c => F($"{separator}online {c.Key}: {string.Join(" ", c.Value.OnlineScalability!.Select(v => F($"{v:0.00}")))}")));

    /// <summary>The stdout table of one simulation: per scheme ANTT, MNTT, STP and each program's NTT (with its recorded runs).</summary>
    public static string Table(SimulationResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var sb = new StringBuilder();
        sb.Append(CultureInfo.InvariantCulture, $"{result.Workload}, {result.Cores} cores, {result.DurationSeconds:0.###} s simulated, {result.Repeat} repetition(s)\n");
        sb.Append(CultureInfo.InvariantCulture, $"  {"program",-14}").AppendJoin(string.Empty, result.Isolated.Select(i => F($" {i.Program,13}")));
        sb.Append('\n').Append(CultureInfo.InvariantCulture, $"  {"C^SP (s)",-14}").AppendJoin(string.Empty, result.Isolated.Select(i => F($" {i.Csp.Mean,13:0.0000}")));
        sb.Append('\n').Append(CultureInfo.InvariantCulture, $"  {"scalability",-14}").AppendJoin(string.Empty, result.Isolated.Select(i => F($" {i.Scalability,13:0.00}")));
        sb.Append(OnlineLines(result, "\n  "));

        sb.Append('\n').Append(CultureInfo.InvariantCulture, $"  {"scheme",-22} {"ANTT",7} {"MNTT",7} {"STP",7}  NTT per program\n");
        foreach (SchemeResult s in result.Schemes)
        {
            sb.Append(CultureInfo.InvariantCulture, $"  {s.Scheme,-22} {Num(s.Antt?.Mean),7} {Num(s.Mntt?.Mean),7} {Num(s.Stp?.Mean),7} ");
            sb.AppendJoin(" ", s.Programs.Select(p => F($"{p.Program}={Num(p.Ntt?.Mean)}({p.Runs})"))).Append('\n');
        }

        return sb.ToString();
    }

    /// <summary>A value with three decimals, or n/a.</summary>
    internal static string Num(double? v) => v is { } x ? x.ToString("0.000", CultureInfo.InvariantCulture) : "n/a";

    /// <summary>The text in the invariant culture.</summary>
    internal static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
