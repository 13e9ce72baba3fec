using System.CommandLine;
using System.Diagnostics;
using DivCon.Metrics;
using DivCon.Cli.Programs;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Factored;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Harness.Schemes;
using DivCon.Metrics.Results;
using DivCon.Metrics.Schemes;
using DivCon.Simulation;
using DivCon.Simulation.Validation;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon simulate validate</c>: the experiments this machine can run, measured and simulated on the same
/// configuration (docs/simulation.md, "Validation"): each program alone at P = 1 … N (the harness's factored
/// measurement) and a short cyclic test per scheme of each workload (the harness's cyclic test); writes
/// <c>validate.json</c> (both sides with every run, and the comparison), <c>validate.csv</c> and <c>validate.md</c>,
/// and prints the tables. <c>--measured FILE</c> re-simulates the measurements of an earlier <c>validate.json</c>
/// (with other models or another memory contention) without measuring again, or those of a <c>factored.json</c>
/// (isolated only). Cost on 2 cores with the defaults
/// (medium, 3 runs, 10 s per scheme, 7 schemes, 2 workloads): about 1 minute alone + 2 × (C^SP ≈ 20 s + 7 × 10.5 s)
/// ≈ 4 minutes.
/// </summary>
internal static class SimulateValidateCommand
{
    // validate.json, validate.csv and validate.md, which is also the table printed.
    private static readonly ResultKind<ValidationFile> s_kind = new([ValidationFile.FileKind], SimulationJsonContext.Files.ValidationFile,
        ValidationReport.Markdown, ValidationReport.Csv, ("validate.md", ValidationReport.Markdown));

    /// <summary>Builds the command.</summary>
    public static Command Create()
    {
        var programs = CommandInput.List("--programs",
            $"Programs measured alone at P = 1 … N (default: {string.Join(",", ProgramCatalog.FullSuite)}).", ProgramCatalog.FullSuite);
        var workloads = CommandInput.List("--workloads",
            "Cyclic workloads: subset (strassen, quicksort, mergesort) and/or suite (all five), or none (default: subset,suite).", ["subset", "suite"]);
        var schemes = CommandInput.List("--schemes",
            $"Schemes of the cyclic tests, or 'all' (default): {string.Join(", ", SchemeCatalog.Simulated)}.", ["all"]);
        var size = CommandInput.Size();
        var runs = CommandInput.Declare("--runs", "Timed runs per P alone (means over them); also the simulated runs per P.", 3);
        var warmup = CommandInput.Declare("--warmup", "Untimed runs before the timed ones (alone and before C^SP).", 1);
        var duration = CommandInput.Declare<string>("--duration", "Each scheme's multiprogram phase, measured and simulated (default 10s).", "10s");
        var spRuns = CommandInput.Declare<int>("--sp-runs", "C^SP runs per program (default 5).", 5);
        var cores = CommandInput.Cores();
        var overBudget = CommandInput.OverBudget();
        var seed = CommandInput.Declare("--seed", "Seeds the programs' inputs, the order of the schemes and the simulator.", SimulationModels.SamplesSeed);
        var models = CommandInput.Declare<string?>("--models", "Folder of <program>.json models and machine.json (default: the shipped ones).");
        var contention = CommandInput.Declare<double?>("--memory-contention", "Memory contention β of the simulator (default: the models' machine.json).");
        var measured = CommandInput.Declare<string?>("--measured",
            "An earlier validate.json, or a factored.json (isolated only): simulate and compare its measurements again (with --models or --memory-contention) "
            + "instead of measuring; the other measuring options are then taken from it.");
        var output = CommandInput.Out(Path.Combine("results", "validate"));
        var command = new Command("validate",
            "Measure what this machine can (each program alone at P = 1 … N, a short cyclic test per scheme of each workload), simulate the same "
            + "configuration, and print and write simulated vs measured with the relative error (validate.json, validate.csv, validate.md). "
            + "Defaults take about 4 minutes on 2 cores.")
        {
            programs, workloads, schemes, size, runs, warmup, duration, spRuns, cores, overBudget, seed, models, contention, measured, output,
        };
        command.SetAction((parse, cancellationToken) =>
        {
            var problems = new List<string>();
            string? modelFolder = parse.GetValue(models);
            MachineModel? machine = SimulationModels.LoadMachine(modelFolder, problems, out string? machineNote);
            double? beta = SimulationModels.CheckContention(parse.GetValue(contention), problems);

            ValidationMeasurements? earlier = ReadEarlier(parse.GetValue(measured), problems);
            IReadOnlyList<ProgramEntry> entries = earlier is null
                ? SamplePrograms.Skeletons.Resolve(CommandInput.SplitNames(parse.GetValue(programs)), problems, minimum: 0)
                : [];
            // The thesis's 3-program subset (§7.5.2) and 5-program suite (§7.5.1).
            List<(string Name, IReadOnlyList<string> Programs)> workloadList = CommandInput.ReadEach(parse, workloads, name => name switch
            {
                "none" => [],
                "subset" => [(name, ProgramCatalog.DefaultCyclicWorkload)],
                "suite" => [(name, ProgramCatalog.FullSuite)],
                _ => CommandInput.Problem<(string, IReadOnlyList<string>)>(problems, $"--workloads '{name}' is not a workload; use subset, suite or none."),
            });

            string[] schemeNames = CommandInput.ReadNamesOrAll(parse.GetValue(schemes), [.. SchemeCatalog.Simulated.Select(x => x.Name)],
                name => $"--schemes: '{name}' is not a scheme both measured and simulated; use 'all' or some of: {string.Join(", ", SchemeCatalog.Simulated)}.", problems);

            WorkloadSize problemSize = CommandInput.ReadSize(parse, size, problems);
            int runCount = CommandInput.AtLeast(parse, runs, 1, problems);
            int warmupCount = CommandInput.AtLeast(parse, warmup, 0, problems);
            int sp = CommandInput.AtLeast(parse, spRuns, 1, problems);
            long? durationNs = DurationParser.Nanoseconds(parse.GetValue(duration), "--duration", problems);
            var (budget, processors, notes) = CommandInput.ReadCores(parse, cores, overBudget, problems);
            problems.AddIf(earlier is null && entries.Count == 0 && workloadList.Count == 0, "Nothing to validate: give --programs or --workloads.");

            string sizeName = earlier?.Settings.Size ?? CommandInput.Name(problemSize);
            WorkloadSize modelSize = Enum.GetValues<WorkloadSize>().FirstOrDefault(s => CommandInput.Name(s) == sizeName);
            var names = earlier is null
                ? entries.Select(e => e.Name).Concat(workloadList.SelectMany(w => w.Programs))
                : earlier.Isolated.Select(r => r.Program).Concat(earlier.Cyclic.SelectMany(w => w.Programs));
            // A program that is not a sample (a hand-made model with --measured) has no sizes: its model is used as it is.
            var loaded = SimulationModels.LoadAll(names, modelFolder, name => SimulationModels.ProblemSize(name, modelSize) is null ? null : modelSize, problems);

            string outDir = CommandInput.ReadOut(parse, output, problems);
            var parameters = new SimulationParameters { MemoryContention = beta ?? machine?.MemoryContention ?? 0 };
            return ExperimentRunner.RunAsync(parse, "simulate validate", problems, outDir,
                async (progress, ct) =>
                {
                    if (machineNote is not null && beta is null)
                    {
                        progress.Line($"note: {machineNote}");
                    }

                    if (earlier is not null)
                    {
                        progress.Line($"simulating the measurements of {parse.GetValue(measured)} again");
                        return SimulationValidation.Compare(earlier with { Settings = earlier.Settings with { Parameters = parameters } }, machine!, loaded);
                    }

                    DateTimeOffset started = DateTimeOffset.UtcNow;
                    long startTicks = Stopwatch.GetTimestamp();
                    int seedValue = parse.GetValue(seed);
                    IReadOnlyList<FactoredProgramResult> isolated = entries.Count == 0
                        ? []
                        : IsolatedMeasurement.Measure(entries, problemSize, seedValue, processors.Count, runCount, warmupCount, budget, null, progress, ct);
                    var cyclic = new List<MeasuredWorkload>();
                    SchemeRegistry registry = BuiltInSchemes.CreateRegistry();
                    var settings = new CyclicSettings(TimeSpan.FromTicks(durationNs!.Value / 100), sp, warmupCount, processors, seedValue,
                        StopGrace: TimeSpan.FromSeconds(60), RunTimeout: TimeSpan.FromMinutes(10), Budget: budget);
                    foreach ((string name, IReadOnlyList<string> list) in workloadList)
                    {
                        progress.Line($"{name}: preparing the inputs (size {sizeName}, seed {seedValue}) ...");
                        IWorkloadProgram[] workload = list.Select(p => SamplePrograms.Workload.Find(p)!.Create(problemSize, seedValue)).ToArray();
                        foreach (IWorkloadProgram program in workload)
                        {
                            program.Initialize();
                        }

                        var plan = new CyclicPlan("cyclic", workload, schemeNames.Select(s => registry.Find(s)!).ToArray(),
                            registry.Find(SchemeCatalog.OversubscribedFree)!, sizeName, settings);
                        CyclicResult result = await new CyclicExperiment(TimeProvider.System, progress).RunAsync(plan, ct);
                        cyclic.Add(new MeasuredWorkload(name, list, result.Schemes));
                    }

                    var validationSettings = new ValidationSettings(sizeName, processors.Count, runCount, warmupCount, durationNs.Value / 1e9, sp, seedValue,
                        schemeNames, parameters);
                    progress.Line("simulating the same configuration ...");
                    return SimulationValidation.Compare(new ValidationMeasurements(validationSettings, isolated, cyclic, started,
                        Stopwatch.GetElapsedTime(startTicks).TotalSeconds, MachineInfo.Capture(budget)), machine!, loaded);
                },
                file => s_kind.Files(file, png: false), s_kind.Table, cancellationToken,
                notes);
        });
        return command;
    }

    private static ValidationMeasurements? ReadEarlier(string? path, List<string> problems) => path is null ? null : CommandInput.Read(() =>
    {
        string json = File.ReadAllText(path);
        if (ResultJson.Header(json).Kind == FactoredResult.FileKind)
        {
            FactoredResult f = ResultKinds.Factored.Read(json);
            var settings = new ValidationSettings(f.Size, (int)f.Programs.Max(p => p.Points.Max(x => x.P)), f.Settings.Runs, f.Settings.WarmupRuns, 0, 0, f.Seed, [],
                new SimulationParameters());
            return new ValidationMeasurements(settings, f.Programs, [], f.StartedUtc, f.ElapsedSeconds, f.Machine);
        }

        ValidationFile v = ResultJson.Read(json, s_kind.Json, ValidationFile.FileKind, FactoredResult.FileKind);
        return new ValidationMeasurements(v.Settings, v.MeasuredIsolated, v.MeasuredCyclic, v.StartedUtc, v.ElapsedSeconds, v.Machine);
    }, problems, $"--measured '{path}': ");
}
