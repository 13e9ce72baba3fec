using System.CommandLine;
using System.Globalization;
using DivCon.Cli.Programs;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Metrics.Schemes;
using DivCon.Simulation;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon simulate</c>: the cyclic test on N virtual cores (the deterministic simulator, docs/simulation.md), with its
/// subcommands <c>calibrate</c> (<see cref="SimulateCalibrateCommand"/>), <c>validate</c>
/// (<see cref="SimulateValidateCommand"/>) and <c>thesis</c> (<see cref="SimulateThesisCommand"/>).
/// </summary>
internal static class SimulateCommand
{
    // simulate.json, simulate.csv and report.md; the tables printed.
    private static readonly ResultKind<SimulationFile> s_kind = new([SimulationFile.FileKind], SimulationJsonContext.Files.SimulationFile,
        file => string.Concat(file.Results.Select(SimulationReport.Table)), SimulationReport.Csv, ("report.md", SimulationReport.Markdown));

    /// <summary>Builds the command.</summary>
    public static Command Create()
    {
        var cores = CommandInput.List("--cores", "Virtual cores; several values (2 16 64 256 or 2,16,64) simulate each. Default 64.");
        var programs = CommandInput.List("--programs",
            $"One workload of these programs (model names). Default: two workloads, 'suite' ({string.Join(", ", ProgramCatalog.FullSuite)}) and 'subset' ({string.Join(", ", ProgramCatalog.DefaultCyclicWorkload)}).");
        var schemes = CommandInput.List("--schemes", $"Schemes, or 'all' (default): {string.Join(", ", SchemeCatalog.Simulated)}.");
        var models = CommandInput.Declare<string?>("--models", "Folder of <program>.json models (default: the models shipped with DivCon).");
        var size = CommandInput.Declare<string>("--size",
            "Problem size the models are scaled to: small, medium, thesis, or 'model' (as calibrated). Default thesis.", "thesis");
        var seed = CommandInput.Declare<ulong>("--seed", "Seed of every random choice. Default 1.", 1UL);
        var duration = CommandInput.Declare<string>("--duration", "Simulated length of each multiprogram phase (e.g. 30s, 2m, 500ms). Default 30s.", "30s");
        var spRuns = CommandInput.Declare<int>("--sp-runs", "Isolated runs per program for C^SP. Default 5.", 5);
        var repeat = CommandInput.Declare<int>("--repeat",
            "Repetitions of the whole simulated cyclic test, each with its own seed; each seed is an independent invocation to the analysis; scheme-level intervals and the paired comparisons need 2 or more. Default 1.",
            1);
        var output = CommandInput.Declare<string>("--out", "Output folder for simulate.json, simulate.csv and report.md. Default simulate-out.", "simulate-out");
        var quantum = CommandInput.Declare<string?>("--quantum", "OS time slice (default 4ms).");
        var contextSwitch = CommandInput.Declare<string?>("--context-switch", "Cost of switching a core between threads (default 5us).");
        var migration = CommandInput.Declare<string?>("--migration", "Cold-start cost of a worker moved to another program or core (default 20us).");
        var steal = CommandInput.Declare<string?>("--steal", "Cost of a successful steal (default 1us).");
        var interval = CommandInput.Declare<string?>("--interval", "Repartitioning interval (default 100ms).");
        var scalability = CommandInput.Declare<string>("--scalability",
            "Where the partitioned schemes' policies get each program's scalability: model (the isolated runs; default) or online (the scheduler's online estimator, docs/online-scalability.md).",
            "model");
        var contention = CommandInput.Declare<double?>("--memory-contention",
            "Memory contention β of the simulated machine (default: the machine.json beside the models; 0 makes memory free).");

        var command = new Command(
            "simulate",
            "Simulate the cyclic multiprogram test on N virtual cores under each scheme, with the real partitioning policies; deterministic: the same options give byte-identical files.")
        {
            cores, programs, schemes, models, size, seed, duration, spRuns, repeat, output, quantum, contextSwitch, migration, steal, interval, contention, scalability,
        };
        command.Subcommands.Add(SimulateCalibrateCommand.Create());
        command.Subcommands.Add(SimulateValidateCommand.Create());
        command.Subcommands.Add(SimulateThesisCommand.Create());
        command.SetAction((ParseResult parse, CancellationToken cancellationToken) =>
        {
            var problems = new List<string>();

            string[] coreItems = CommandInput.SplitNames(parse.GetValue(cores));
            bool IsCount(string item) => int.TryParse(item, NumberStyles.None, CultureInfo.InvariantCulture, out int v) && v >= 1;
            problems.AddRange(coreItems.Where(i => !IsCount(i)).Select(i => $"--cores takes positive integers; got '{i}'."));
            int[] coreCounts = coreItems.Length == 0 ? [64] : [.. coreItems.Where(IsCount).Select(i => int.Parse(i, CultureInfo.InvariantCulture))];
            string[] programNames = CommandInput.SplitNames(parse.GetValue(programs));
            string[] schemeNames = CommandInput.ReadNamesOrAll(parse.GetValue(schemes), [.. SchemeCatalog.Simulated.Select(x => x.Name)],
                name => $"Unknown scheme '{name}'; use 'all' or some of: {string.Join(", ", SchemeCatalog.Simulated)}.", problems);

            string scalabilitySource = parse.GetValue(scalability) ?? "model";
            problems.AddIf(scalabilitySource is not ("model" or "online"), $"--scalability takes model or online; got '{scalabilitySource}'.");

            long? durationNs = DurationParser.Nanoseconds(parse.GetValue(duration), "--duration", problems);
            int sp = CommandInput.AtLeast(parse, spRuns, 1, problems);
            int repetitions = CommandInput.AtLeast(parse, repeat, 1, problems);

            SimulationParameters parameters = new();
            parameters = parameters with
            {
                QuantumNs = DurationParser.Nanoseconds(parse.GetValue(quantum), "--quantum", problems) ?? parameters.QuantumNs,
                ContextSwitchNs = DurationParser.Nanoseconds(parse.GetValue(contextSwitch), "--context-switch", problems, allowZero: true) ?? parameters.ContextSwitchNs,
                MigrationNs = DurationParser.Nanoseconds(parse.GetValue(migration), "--migration", problems, allowZero: true) ?? parameters.MigrationNs,
                StealNs = DurationParser.Nanoseconds(parse.GetValue(steal), "--steal", problems, allowZero: true) ?? parameters.StealNs,
                RepartitionIntervalNs = DurationParser.Nanoseconds(parse.GetValue(interval), "--interval", problems) ?? parameters.RepartitionIntervalNs,
            };

            string? modelFolder = parse.GetValue(models);
            MachineModel? machine = SimulationModels.LoadMachine(modelFolder, problems, out string? machineNote);
            double? beta = SimulationModels.CheckContention(parse.GetValue(contention) ?? machine?.MemoryContention, problems);

            parameters = parameters with { MemoryContention = beta is { } v && v >= 0 && double.IsFinite(v) ? v : 0 };
            string sizeText = parse.GetValue(size) ?? "thesis";
            WorkloadSize? problemSize = sizeText == "model" ? null : CommandInput.ReadSize(parse, size, problems);

            var workloads = programNames is { Length: > 0 }
                ? new List<(string Name, IReadOnlyList<string> Programs)> { (programNames.Length == 1 ? programNames[0] : "custom", programNames) }
                : [("suite", ProgramCatalog.FullSuite), ("subset", ProgramCatalog.DefaultCyclicWorkload)];
            var loaded = SimulationModels.LoadAll(workloads.SelectMany(w => w.Programs), modelFolder, _ => problemSize, problems);

            problems.AddRange(programNames.GroupBy(p => p, StringComparer.Ordinal).Where(g => g.Count() > 1).Select(g => $"Program '{g.Key}' is listed more than once."));

            string outDir = CommandInput.ReadOut(parse, output, problems);
            var settings = new Dictionary<string, string>
            {
                ["cores"] = string.Join(" ", coreCounts),
                ["schemes"] = string.Join(" ", schemeNames),
                ["models"] = modelFolder is null ? "default" : Path.GetFileName(Path.GetFullPath(modelFolder)),
                ["size"] = sizeText,
                ["seed"] = parse.GetValue(seed).ToString(CultureInfo.InvariantCulture),
                ["duration"] = parse.GetValue(duration) ?? "30s",
                ["repeat"] = repetitions.ToString(CultureInfo.InvariantCulture),
                ["scalability"] = scalabilitySource,
            };
            return ExperimentRunner.RunAsync(parse, "simulate", problems, outDir,
                (progress, ct) =>
                {
                    var results = new List<SimulationResult>();
                    foreach (int n in coreCounts)
                    {
                        foreach ((string name, IReadOnlyList<string> list) in workloads)
                        {
                            ct.ThrowIfCancellationRequested();
                            var request = new SimulationRequest
                            {
                                Cores = n,
                                Programs = list.Select(p => loaded[p]).ToArray(),
                                Schemes = schemeNames,
                                Seed = parse.GetValue(seed),
                                DurationNs = durationNs!.Value,
                                SpRuns = sp,
                                Repeat = repetitions,
                                Parameters = parameters,
                                OnlineScalability = scalabilitySource == "online",
                            };
                            progress.Line($"simulating {name} on {n} cores ({list.Count} programs, {schemeNames.Length} schemes)...");
                            results.Add(CyclicSimulator.Run(request, name));
                        }
                    }

                    return Task.FromResult(new SimulationFile(settings, parameters, results));
                },
                file => s_kind.Files(file, png: false), s_kind.Table, cancellationToken,
                machineNote is not null && parse.GetValue(contention) is null ? [machineNote] : null);
        });
        return command;
    }
}
