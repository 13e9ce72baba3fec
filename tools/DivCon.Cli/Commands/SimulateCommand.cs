using System.CommandLine;
using System.Globalization;
using DivCon.Cli.Programs;
using DivCon.Harness.Programs;
using DivCon.Metrics.Schemes;
using DivCon.Simulation;
using DivCon.Skeletons;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon simulate</c>: the cyclic test on N virtual cores (the deterministic simulator, docs/simulation.md), and
/// <c>divcon simulate calibrate</c>: program models from phase profiles measured on this machine.
/// </summary>
internal static class SimulateCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create()
    {
        var cores = new Option<string[]>("--cores")
        {
            Description = "Virtual cores; several values (2 16 64 256 or 2,16,64) simulate each. Default 64.",
            AllowMultipleArgumentsPerToken = true,
        };
        var programs = new Option<string[]>("--programs")
        {
            Description = $"One workload of these programs (model names). Default: two workloads, 'suite' ({string.Join(", ", ProgramCatalog.FullSuite)}) and 'subset' ({string.Join(", ", ProgramCatalog.DefaultCyclicWorkload)}).",
            AllowMultipleArgumentsPerToken = true,
        };
        var schemes = new Option<string[]>("--schemes")
        {
            Description = $"Schemes, or 'all' (default): {string.Join(", ", SchemeCatalog.Simulated)}.",
            AllowMultipleArgumentsPerToken = true,
        };
        var models = new Option<string?>("--models") { Description = "Folder of <program>.json models (default: the models shipped with DivCon)." };
        var size = new Option<string>("--size")
        {
            Description = "Problem size the models are scaled to: small, medium, thesis, or 'model' (as calibrated). Default thesis.",
            DefaultValueFactory = _ => "thesis",
        };
        var seed = new Option<ulong>("--seed") { Description = "Seed of every random choice. Default 1.", DefaultValueFactory = _ => 1UL };
        var duration = new Option<string>("--duration")
        {
            Description = "Simulated length of each multiprogram phase (e.g. 30s, 2m, 500ms). Default 30s.",
            DefaultValueFactory = _ => "30s",
        };
        var spRuns = new Option<int>("--sp-runs") { Description = "Isolated runs per program for C^SP. Default 5.", DefaultValueFactory = _ => 5 };
        var repeat = new Option<int>("--repeat")
        {
            Description = "Repetitions of the whole simulated cyclic test, each with its own seed; each seed is an independent invocation to the analysis; scheme-level intervals and the paired comparisons need 2 or more. Default 1.",
            DefaultValueFactory = _ => 1,
        };
        var output = new Option<string>("--out")
        {
            Description = "Output folder for simulate.json, simulate.csv and report.md. Default simulate-out.",
            DefaultValueFactory = _ => "simulate-out",
        };
        var quantum = new Option<string?>("--quantum") { Description = "OS time slice (default 4ms)." };
        var contextSwitch = new Option<string?>("--context-switch") { Description = "Cost of switching a core between threads (default 5us)." };
        var migration = new Option<string?>("--migration") { Description = "Cold-start cost of a worker moved to another program or core (default 20us)." };
        var steal = new Option<string?>("--steal") { Description = "Cost of a successful steal (default 1us)." };
        var interval = new Option<string?>("--interval") { Description = "Repartitioning interval (default 100ms)." };

        var command = new Command(
            "simulate",
            "Simulate the cyclic multiprogram test on N virtual cores under each scheme, with the real partitioning policies; deterministic: the same options give byte-identical files.")
        {
            cores, programs, schemes, models, size, seed, duration, spRuns, repeat, output, quantum, contextSwitch, migration, steal, interval,
        };
        command.Subcommands.Add(CreateCalibrate());
        command.SetAction(async (ParseResult parse, CancellationToken cancellationToken) =>
        {
            TextWriter stdout = parse.InvocationConfiguration.Output;
            var problems = new List<string>();

            int[] coreCounts = ParseInts(parse.GetValue(cores), "--cores", problems, defaultValue: 64);
            string[] programNames = CommandInput.SplitNames(parse.GetValue(programs));
            string[] schemeNames = CommandInput.SplitNames(parse.GetValue(schemes)) is { Length: > 0 } s && !(s.Length == 1 && s[0] == "all")
                ? s
                : [.. SchemeCatalog.Simulated.Select(x => x.Name)];
            foreach (string name in schemeNames.Where(n => !SchemeCatalog.Simulated.Any(x => x.Name == n)))
            {
                problems.Add($"Unknown scheme '{name}'; use 'all' or some of: {string.Join(", ", SchemeCatalog.Simulated)}.");
            }

            long? durationNs = DurationParser.Nanoseconds(parse.GetValue(duration), "--duration", problems);
            int sp = parse.GetValue(spRuns);
            if (sp < 1)
            {
                problems.Add($"--sp-runs must be at least 1; got {sp}.");
            }

            int repetitions = parse.GetValue(repeat);
            if (repetitions < 1)
            {
                problems.Add($"--repeat must be at least 1; got {repetitions}.");
            }

            SimulationParameters parameters = new();
            parameters = parameters with
            {
                QuantumNs = DurationParser.Nanoseconds(parse.GetValue(quantum), "--quantum", problems) ?? parameters.QuantumNs,
                ContextSwitchNs = DurationParser.Nanoseconds(parse.GetValue(contextSwitch), "--context-switch", problems, allowZero: true) ?? parameters.ContextSwitchNs,
                MigrationNs = DurationParser.Nanoseconds(parse.GetValue(migration), "--migration", problems, allowZero: true) ?? parameters.MigrationNs,
                StealNs = DurationParser.Nanoseconds(parse.GetValue(steal), "--steal", problems, allowZero: true) ?? parameters.StealNs,
                RepartitionIntervalNs = DurationParser.Nanoseconds(parse.GetValue(interval), "--interval", problems) ?? parameters.RepartitionIntervalNs,
            };

            string sizeText = parse.GetValue(size) ?? "thesis";
            WorkloadSize? problemSize = sizeText == "model" ? null : CommandInput.ReadSize(parse, size, problems);

            var workloads = programNames is { Length: > 0 }
                ? new List<(string Name, IReadOnlyList<string> Programs)> { (programNames.Length == 1 ? programNames[0] : "custom", programNames) }
                : [("suite", ProgramCatalog.FullSuite), ("subset", ProgramCatalog.DefaultCyclicWorkload)];
            string? modelFolder = parse.GetValue(models);
            var loaded = new Dictionary<string, ProgramModel>(StringComparer.Ordinal);
            foreach (string name in workloads.SelectMany(w => w.Programs).Distinct(StringComparer.Ordinal))
            {
                if (LoadModel(name, modelFolder, problemSize, problems) is { } model)
                {
                    loaded[name] = model;
                }
            }

            foreach (var dup in programNames.GroupBy(p => p, StringComparer.Ordinal).Where(g => g.Count() > 1))
            {
                problems.Add($"Program '{dup.Key}' is listed more than once.");
            }

            string outDir = CommandInput.ReadOut(parse, output, problems);
            if (await ExperimentRunner.ReportAsync(parse, "divcon simulate", problems))
            {
                return CliApp.UsageError;
            }

            var results = new List<SimulationResult>();
            foreach (int n in coreCounts)
            {
                foreach ((string name, IReadOnlyList<string> list) in workloads)
                {
                    cancellationToken.ThrowIfCancellationRequested();
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
                    };
                    await stdout.WriteLineAsync($"simulating {name} on {n} cores ({list.Count} programs, {schemeNames.Length} schemes)...");
                    SimulationResult result = await Task.Run(() => CyclicSimulator.Run(request, name), cancellationToken);
                    results.Add(result);
                    await stdout.WriteAsync(SimulationReport.Table(result));
                }
            }

            var settings = new Dictionary<string, string>
            {
                ["cores"] = string.Join(" ", coreCounts),
                ["schemes"] = string.Join(" ", schemeNames),
                ["models"] = modelFolder is null ? "default" : Path.GetFileName(Path.GetFullPath(modelFolder)),
                ["size"] = sizeText,
                ["seed"] = parse.GetValue(seed).ToString(CultureInfo.InvariantCulture),
                ["duration"] = parse.GetValue(duration) ?? "30s",
                ["repeat"] = repetitions.ToString(CultureInfo.InvariantCulture),
            };
            var file = new SimulationFile(settings, parameters, results);
            ResultFolder.Write(outDir,
            [
                ("simulate.json", ResultJson.ToUtf8(file, SimulationJsonContext.Files.SimulationFile)),
                ("simulate.csv", SimulationReport.Csv(file).ToUtf8()),
                ("report.md", System.Text.Encoding.UTF8.GetBytes(SimulationReport.Markdown(file))),
            ]);
            await stdout.WriteLineAsync($"wrote {Path.Combine(outDir, "simulate.json")}, simulate.csv, report.md");
            return 0;
        });
        return command;
    }

    private static Command CreateCalibrate()
    {
        var programs = new Option<string[]>("--programs")
        {
            Description = $"Programs to profile (default all: {SamplePrograms.Skeletons.Names}).",
            AllowMultipleArgumentsPerToken = true,
        };
        var size = new Option<string>("--size") { Description = "small or medium (default small).", DefaultValueFactory = _ => "small" };
        var runs = new Option<int>("--runs") { Description = "Profiled runs per program, after one warm-up; the minimum time per level and phase is kept (default 5).", DefaultValueFactory = _ => 5 };
        var granularityCores = new Option<int>("--granularity-cores")
        {
            Description = "Core count the automatic granularity is set for while profiling, so the profile has several levels (default 16).",
            DefaultValueFactory = _ => 16,
        };
        var output = new Option<string>("--out") { Description = "Folder for the <program>.json models (default models).", DefaultValueFactory = _ => "models" };
        var command = new Command(
            "calibrate",
            "Profile each sample program's split / execute / merge time per level on this machine (one worker at a time, so muscle times are not inflated by co-running muscles) and write a simulator model per program.")
        {
            programs, size, runs, granularityCores, output,
        };
        command.SetAction(async (ParseResult parse, CancellationToken cancellationToken) =>
        {
            TextWriter stdout = parse.InvocationConfiguration.Output;
            var problems = new List<string>();
            string[] names = CommandInput.SplitNames(parse.GetValue(programs)) is { Length: > 0 } p ? p : [.. SamplePrograms.Skeletons.All.Select(e => e.Name)];
            IReadOnlyList<ProgramEntry> entries = SamplePrograms.Skeletons.Resolve(names, problems);
            WorkloadSize problemSize = CommandInput.ReadSize(parse, size, problems, WorkloadSize.Small, WorkloadSize.Medium);
            int runCount = CommandInput.AtLeast(parse, runs, 1, problems);
            int gCores = CommandInput.AtLeast(parse, granularityCores, 1, problems);
            string outDir = CommandInput.ReadOut(parse, output, problems);
            if (await ExperimentRunner.ReportAsync(parse, "divcon simulate calibrate", problems))
            {
                return CliApp.UsageError;
            }

            foreach (ProgramEntry entry in entries)
            {
                cancellationToken.ThrowIfCancellationRequested();
                string name = entry.Name;
                ProgramModel model = await Task.Run(() => Profile(entry, problemSize, runCount, gCores, cancellationToken), cancellationToken);
                string path = ModelStore.Save(outDir, model);
                await stdout.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
                    $"{name}: {model.Levels.Count} levels, work {model.TotalWorkNs / 1e6:0.0} ms per run, level growth {model.LevelGrowth} -> {path}"));
            }

            return 0;
        });
        return command;
    }

    /// <summary>Profiles <paramref name="runs"/> runs of one sample program one task at a time and calibrates its model.</summary>
    internal static ProgramModel Profile(ProgramEntry entry, WorkloadSize size, int runs, int granularityCores, CancellationToken cancellationToken)
    {
        var program = (ISkeletonProgram)entry.Create(size, SamplesDefaultSeed);
        var profiler = new PhaseProfiler();
        program.UseAutomaticGranularity(granularityCores);
        program.Profiler = profiler;
        program.Initialize();
        return ModelCalibrator.Profile(entry.Name, program.BranchingFactor, program.ProblemSize, profiler, program.RunAsync, program.Verify, runs,
            $"size {CommandInput.Name(size)} (granularity for {granularityCores} cores", cancellationToken);
    }

    private const int SamplesDefaultSeed = DivCon.Samples.SampleCatalog.DefaultSeed;

    private static ProgramModel? LoadModel(string name, string? folder, WorkloadSize? size, List<string> problems)
    {
        ProgramModel model;
        try
        {
            model = folder is null ? ModelStore.LoadDefault(name) : ModelStore.Load(folder, name);
        }
        catch (Exception e) when (e is ArgumentException or FileNotFoundException or InvalidDataException or IOException or UnauthorizedAccessException)
        {
            problems.Add(e.Message);
            return null;
        }

        if (size is not { } s)
        {
            return model;
        }

        if (SamplePrograms.Skeletons.Find(name)?.Create(s, SamplesDefaultSeed) is not ISkeletonProgram sample)
        {
            problems.Add($"Program '{name}' is not a sample program, so it has no {CommandInput.Name(s)} size; use --size model.");
            return null;
        }

        return model.ScaledTo(sample.ProblemSize);
    }

    private static int[] ParseInts(string[]? values, string option, List<string> problems, int defaultValue)
    {
        string[] items = CommandInput.SplitNames(values);
        if (items.Length == 0)
        {
            return [defaultValue];
        }

        var result = new List<int>();
        foreach (string item in items)
        {
            if (int.TryParse(item, NumberStyles.None, CultureInfo.InvariantCulture, out int v) && v >= 1)
            {
                result.Add(v);
            }
            else
            {
                problems.Add($"{option} takes positive integers; got '{item}'.");
            }
        }

        return result.ToArray();
    }
}
