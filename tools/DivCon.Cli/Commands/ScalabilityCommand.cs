using System.CommandLine;
using DivCon.Harness.Experiments;
using DivCon.Harness.Reporting;
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
        var shared = new IsolatedOptions(command, Path.Combine("results", "scalability"), defaultRuns: 3);
        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            var selections = new List<ProcessorSelection>();
            string[] names = CommandInput.SplitNames(parse.GetValue(selection));
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

            return shared.RunAsync(parse, problems, ResultKinds.Scalability,
                (settings, programs, progress, token) => ScalabilityExperiment.RunAsync(settings, programs, selections, CpuTopology.Detect(), progress, token), ct);
        });
        return command;
    }
}
