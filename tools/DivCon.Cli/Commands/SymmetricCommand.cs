using System.CommandLine;
using System.Globalization;
using DivCon.Harness.Plots;
using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon symmetric</c> (thesis §7.4): n instances of one program, each with its own input (seed + k), run as a
/// cyclic test under each scheme; the instances are named <c>program#k</c>. MNTT is the figure the thesis plots.
/// </summary>
internal static class SymmetricCommand
{
    public const int DefaultInstances = 4;

    public static Command Create(ProgramCatalog catalog, SchemeRegistry registry, SchemeTimelineCollector? timelines = null)
    {
        var shared = new HarnessCommandOptions(defaultOut: Path.Combine("results", "symmetric"));
        var programOption = new Option<string>("--program")
        {
            Description = $"The program to run several instances of. Known: {string.Join(", ", catalog.All.Select(e => e.Name))}.",
            DefaultValueFactory = _ => "quicksort",
        };
        var instancesOption = new Option<int>("--instances")
        {
            Description = "How many instances run together (the thesis ran 8 on 64 cores).",
            DefaultValueFactory = _ => DefaultInstances,
        };
        var command = new Command("symmetric",
            "Symmetric multiprogram test (§7.4): n instances of one program under each scheme; prints NTT per instance and ANTT, MNTT, STP per scheme, "
            + "writes symmetric.json, symmetric.csv, report.md.")
        {
            programOption,
            instancesOption,
        };
        shared.AddTo(command);
        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            string name = parse.GetValue(programOption) ?? string.Empty;
            int instances = parse.GetValue(instancesOption);
            if (instances <= 0)
            {
                problems.Add(string.Create(CultureInfo.InvariantCulture, $"--instances must be at least 1; got {instances}."));
            }

            List<ProgramEntry> entries = HarnessCommandRunner.ResolvePrograms(catalog, [name], problems);
            return HarnessCommandRunner.RunAsync(parse, shared, "symmetric", problems,
                (size, seed) => Enumerable.Range(1, instances)
                    .Select(k => (IWorkloadProgram)new SampleProgramAdapter(entries[0].Create(size, seed + k - 1), string.Create(CultureInfo.InvariantCulture, $"{entries[0].Name}#{k}")))
                    .ToArray(),
                registry, ct, timelines);
        });
        return command;
    }
}
