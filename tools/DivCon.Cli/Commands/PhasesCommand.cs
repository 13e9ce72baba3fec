using System.CommandLine;
using DivCon.Harness.Experiments;
using DivCon.Harness.Reporting;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon phases</c>: cumulative split / execute / merge time per recursion level (thesis §7.3, Figure 7.5), from
/// the skeleton's PhaseProfiler, each program alone on all cores with the automatic granularity.
/// </summary>
internal static class PhasesCommand
{
    public static Command Create()
    {
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
        var shared = new IsolatedOptions(command, Path.Combine("results", "phases"), defaultRuns: 3);
        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            int k = parse.GetValue(muscles);
            if (k < 1)
            {
                problems.Add($"--muscles-per-core must be at least 1; got {k}.");
            }

            return shared.RunAsync(parse, problems, ResultKinds.Phases,
                (settings, programs, progress, token) => PhasesExperiment.RunAsync(settings, programs, k, progress, token), ct);
        });
        return command;
    }
}
