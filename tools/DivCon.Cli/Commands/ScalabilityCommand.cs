using System.CommandLine;
using System.Globalization;
using System.Text;
using DivCon.Harness.Experiments;
using DivCon.Scheduling;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon scalability</c>: speedup vs cores (thesis §7.2, Figures 7.3–7.4). Per program: T_s, then T_P on a pinned
/// work-stealing scheduler for P = 1 … N processors chosen contiguously and/or dispersed. At medium size on 2 cores:
/// 5 programs × (1 + 3) sequential runs + 2 selections × 2 P × (1 + 3) parallel runs ≈ 5 × 20 × 0.5–1 s ≈ 1–2 min.
/// </summary>
internal static class ScalabilityCommand
{
    public static Command Create()
    {
        var shared = new ExperimentCommandOptions(defaultOut: Path.Combine("results", "scalability"), defaultRuns: 3);
        var selection = new Option<string[]>("--selection")
        {
            Description = "Processor selections, comma- or space-separated: contiguous, dispersed (default: both).",
            AllowMultipleArgumentsPerToken = true,
            DefaultValueFactory = _ => ["contiguous", "dispersed"],
        };
        var command = new Command("scalability",
            "Speedup vs cores (§7.2, Figures 7.3–7.4): T_s and T_P of each program alone on a pinned work-stealing scheduler, P = 1 … N, "
            + "processors chosen contiguously and dispersed; writes scalability.json, scalability.csv and speedup-*.png.")
        {
            selection,
        };
        shared.AddTo(command);
        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            var selections = new List<ProcessorSelection>();
            string[] names = HarnessCommandRunner.SplitNames(parse.GetValue(selection));
            if (names.Length == 0)
            {
                problems.Add("--selection needs contiguous, dispersed or both.");
            }

            foreach (string name in names)
            {
                if (Enum.TryParse(name, ignoreCase: true, out ProcessorSelection s) && Enum.IsDefined(s) && !int.TryParse(name, out _))
                {
                    if (!selections.Contains(s))
                    {
                        selections.Add(s);
                    }
                }
                else
                {
                    problems.Add($"--selection '{name}' is not a selection; use contiguous or dispersed.");
                }
            }

            return ExperimentCommandRunner.RunAsync(parse, shared, ScalabilityResult.Kind, problems, async (settings, progress, token) =>
            {
                ScalabilityResult r = await ScalabilityExperiment.RunAsync(settings, selections, CpuTopology.Detect(), progress, token);
                return new ExperimentCommandRunner.Output(r.ToJson(), r.ToCsv(), Table(r));
            }, ct);
        });
        return command;
    }

    private static string Table(ScalabilityResult r)
    {
        var sb = new StringBuilder();
        sb.AppendLine(CultureInfo.InvariantCulture, $"{"program",-14} {"selection",-11} {"P",3} {"T_s (s)",10} {"T_P (s)",10} {"speedup",8}  processors");
        foreach (ScalabilityProgramResult p in r.Programs)
        {
            foreach (ScalabilityCurve c in p.Curves)
            {
                foreach (ScalabilityCorePoint pt in c.Points)
                {
                    sb.AppendLine(CultureInfo.InvariantCulture,
                        $"{p.Program,-14} {ScalabilityResult.Name(c.Selection),-11} {pt.P,3} {p.Ts.Mean,10:0.0000} {pt.Tp.Mean,10:0.0000} {pt.Speedup,8:0.00}  {string.Join(",", pt.Processors)}{(pt.Pinned ? "" : " (unpinned)")}");
                }
            }
        }

        return sb.ToString();
    }
}
