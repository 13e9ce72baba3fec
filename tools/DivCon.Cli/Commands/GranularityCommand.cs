using System.CommandLine;
using DivCon.Harness.Experiments;
using DivCon.Harness.Reporting;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon granularity</c>: time vs granularity (thesis §7.1, Figures 7.1–7.2): each program alone on all cores with
/// granularity = problem size / 2^k, k = 0 … max-depth.
/// </summary>
internal static class GranularityCommand
{
    public static Command Create()
    {
        var maxDepth = new Option<int>("--max-depth")
        {
            Description = $"Finest granularity: problem size / 2^max-depth (0 … {GranularityExperiment.MaxSupportedDepth}; the thesis goes to 16).",
            DefaultValueFactory = _ => 12,
        };
        var command = new Command("granularity",
            "Time vs granularity (§7.1, Figures 7.1–7.2): each program alone on all cores, granularity halved from the problem size down to size / 2^max-depth; "
            + "writes granularity.json, granularity.csv and granularity*.png.")
        {
            maxDepth,
        };
        var shared = new IsolatedOptions(command, Path.Combine("results", "granularity"), defaultRuns: 3);
        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            int depth = parse.GetValue(maxDepth);
            if (depth < 0 || depth > GranularityExperiment.MaxSupportedDepth)
            {
                problems.Add($"--max-depth must be between 0 and {GranularityExperiment.MaxSupportedDepth}; got {depth}.");
            }

            return shared.RunAsync(parse, problems, ResultKinds.Granularity,
                (settings, programs, progress, token) => GranularityExperiment.RunAsync(settings, programs, depth, progress, token), ct);
        });
        return command;
    }
}
