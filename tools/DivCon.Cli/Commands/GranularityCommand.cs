using System.CommandLine;
using System.Globalization;
using System.Text;
using DivCon.Harness.Experiments;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon granularity</c>: time vs granularity (thesis §7.1, Figures 7.1–7.2): each program alone on all cores with
/// granularity = problem size / 2^k, k = 0 … max-depth.
/// </summary>
internal static class GranularityCommand
{
    public const int DefaultMaxDepth = 12;

    public static Command Create()
    {
        var shared = new ExperimentCommandOptions(defaultOut: Path.Combine("results", "granularity"), defaultRuns: 3);
        var maxDepth = new Option<int>("--max-depth")
        {
            Description = $"Finest granularity: problem size / 2^max-depth (0 … {GranularityExperiment.MaxSupportedDepth}; the thesis goes to 16).",
            DefaultValueFactory = _ => DefaultMaxDepth,
        };
        var command = new Command("granularity",
            "Time vs granularity (§7.1, Figures 7.1–7.2): each program alone on all cores, granularity halved from the problem size down to size / 2^max-depth; "
            + "writes granularity.json, granularity.csv and granularity*.png.")
        {
            maxDepth,
        };
        shared.AddTo(command);
        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            int depth = parse.GetValue(maxDepth);
            if (depth < 0 || depth > GranularityExperiment.MaxSupportedDepth)
            {
                problems.Add($"--max-depth must be between 0 and {GranularityExperiment.MaxSupportedDepth}; got {depth}.");
            }

            return ExperimentCommandRunner.RunAsync(parse, shared, GranularityResult.Kind, problems, async (settings, progress, token) =>
            {
                GranularityResult r = await GranularityExperiment.RunAsync(settings, depth, progress, token);
                return new ExperimentCommandRunner.Output(r.ToJson(), r.ToCsv(), Table(r));
            }, ct);
        });
        return command;
    }

    private static string Table(GranularityResult r)
    {
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
}
