using System.Collections.Concurrent;
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
    public static Command Create(ProgramCatalog catalog, SchemeRegistry registry, ConcurrentQueue<SchemeTimeline>? timelines = null, CliSelf? self = null)
    {
        var programOption = CommandInput.Declare<string>("--program", $"The program to run several instances of. Known: {catalog.Names}.", "quicksort");
        var instancesOption = CommandInput.Declare<int>("--instances", "How many instances run together (the thesis ran 8 on 64 cores).", 4);
        var command = new Command("symmetric",
            "Symmetric multiprogram test (§7.4): n instances of one program under each scheme; prints NTT per instance and ANTT, MNTT, STP per scheme, "
            + "writes symmetric.json, symmetric.csv, report.md.")
        {
            programOption,
            instancesOption,
        };
        var shared = new CyclicOptions(command, Path.Combine("results", "symmetric"), self);
        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            int instances = CommandInput.AtLeast(parse, instancesOption, 1, problems);
            IReadOnlyList<ProgramEntry> entry = catalog.Resolve([parse.GetValue(programOption) ?? string.Empty], problems, programOption.Name);
            return shared.RunAsync(parse, "symmetric", problems,
                (size, seed) => Enumerable.Range(1, instances)
                    .Select(k => (IWorkloadProgram)new Instance(entry[0].Create(size, seed + k - 1), string.Create(CultureInfo.InvariantCulture, $"{entry[0].Name}#{k}")))
                    .ToArray(),
                entry.Count == 0 ? [] : ["--program", entry[0].Name, "--instances", instances.ToString(CultureInfo.InvariantCulture)],
                registry, timelines, ct);
        });
        return command;
    }

    // One instance of the program under its own name.
    private sealed class Instance(IWorkloadProgram program, string name) : IWorkloadProgram
    {
        public string Name => name;

        public void Initialize() => program.Initialize();

        public Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken) => program.RunAsync(scheduler, cancellationToken);

        public void RunSequential() => program.RunSequential();

        public void Verify() => program.Verify();
    }
}
