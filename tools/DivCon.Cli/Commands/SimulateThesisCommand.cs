using System.CommandLine;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Simulation;
using DivCon.Simulation.Validation;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon simulate thesis</c>: the simulator's isolated speedups, thesis-size models, against every speedup the
/// thesis states in its text (<see cref="ThesisSpeedups.Claims"/>); writes <c>thesis.json</c> and <c>thesis.md</c>
/// and prints the table. Pure simulation (a few seconds), deterministic.
/// </summary>
internal static class SimulateThesisCommand
{
    // thesis.json and thesis.md, which is also the table printed.
    private static readonly ResultKind<ThesisComparisonFile> s_kind = new([ThesisComparisonFile.FileKind], SimulationJsonContext.Files.ThesisComparisonFile,
        ThesisSpeedups.Markdown, Markdown: ("thesis.md", ThesisSpeedups.Markdown));

    /// <summary>Builds the command.</summary>
    public static Command Create()
    {
        var models = CommandInput.Declare<string?>("--models", "Folder of <program>.json models and machine.json (default: the shipped ones).");
        var contention = CommandInput.Declare<double?>("--memory-contention", "Memory contention β (default: the models' machine.json).");
        var runs = CommandInput.Declare<int>("--runs", "Simulated runs per speedup (default 5).", 5);
        var output = CommandInput.Out(Path.Combine("results", "simulate-thesis"));
        var command = new Command("thesis",
            "Simulate each program alone at thesis size and compare its speedup with every speedup the thesis states (§5.3.2, §5.3.4, §7.2, §7.2.1); writes thesis.json and thesis.md.")
        {
            models, contention, runs, output,
        };
        command.SetAction((parse, cancellationToken) =>
        {
            var problems = new List<string>();
            string? folder = parse.GetValue(models);
            MachineModel? machine = SimulationModels.LoadMachine(folder, problems, out string? machineNote);
            double beta = SimulationModels.CheckContention(parse.GetValue(contention) ?? machine?.MemoryContention ?? 0, problems)!.Value;

            int runCount = CommandInput.AtLeast(parse, runs, 1, problems);
            var loaded = SimulationModels.LoadAll(ThesisSpeedups.Claims.Select(c => c.Program), folder, _ => WorkloadSize.Thesis, problems);

            string outDir = CommandInput.ReadOut(parse, output, problems);
            var parameters = new SimulationParameters { MemoryContention = beta };
            string modelsName = folder is null ? "default" : Path.GetFileName(Path.GetFullPath(folder));
            return ExperimentRunner.RunAsync(parse, "simulate thesis", problems, outDir,
                (progress, ct) => Task.FromResult(ThesisSpeedups.Compare(loaded, parameters, runCount, modelsName)),
                file => s_kind.Files(file, png: false), s_kind.Table, cancellationToken,
                machineNote is not null && parse.GetValue(contention) is null ? [machineNote] : null);
        });
        return command;
    }
}
