using System.CommandLine;
using System.Globalization;
using System.Text;
using DivCon.Harness.Experiments;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon phases</c>: cumulative split / execute / merge time per recursion level (thesis §7.3, Figure 7.5), from
/// the skeleton's PhaseProfiler, each program alone on all cores with the automatic granularity.
/// </summary>
internal static class PhasesCommand
{
    public static Command Create()
    {
        var shared = new ExperimentCommandOptions(defaultOut: Path.Combine("results", "phases"), defaultRuns: 3);
        var muscles = new Option<int>("--muscles-per-core")
        {
            Description = "Target execute muscles per core of the automatic granularity (§4.5.2; default 4).",
            DefaultValueFactory = _ => 4,
        };
        var command = new Command("phases",
            "Cumulative split / execute / merge time per recursion level (§7.3, Figure 7.5), per program, from the phase profiler; "
            + "writes phases.json, phases.csv and phases-{program}.png.")
        {
            muscles,
        };
        shared.AddTo(command);
        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            int k = parse.GetValue(muscles);
            if (k < 1)
            {
                problems.Add($"--muscles-per-core must be at least 1; got {k}.");
            }

            return ExperimentCommandRunner.RunAsync(parse, shared, PhasesResult.Kind, problems, async (settings, progress, token) =>
            {
                PhasesResult r = await PhasesExperiment.RunAsync(settings, k, progress, token);
                return new ExperimentCommandRunner.Output(r.ToJson(), r.ToCsv(), Table(r));
            }, ct);
        });
        return command;
    }

    private static string Table(PhasesResult r)
    {
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
}
