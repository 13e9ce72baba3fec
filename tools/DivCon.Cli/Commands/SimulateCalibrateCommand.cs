using System.CommandLine;
using System.Globalization;
using System.Text;
using DivCon.Cli.Programs;
using DivCon.Harness.Factored;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Metrics.Results;
using DivCon.Samples.WorkInflation;
using DivCon.Simulation;
using DivCon.Skeletons;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon simulate calibrate</c>: simulator models measured on this machine (docs/simulation.md, "Models and
/// calibration"). Three measurements, each of which can instead be taken from elsewhere:
/// <list type="number">
/// <item>the machine's memory contention β, from the work-inflation microbenchmark (seed 000 §4) alone at P = 1 … N
/// (<c>--machine measure|default|FILE</c>);</item>
/// <item>each program's phase profile, one task at a time: the shape of its tree (<c>--profiles measure|default|DIR</c>);</item>
/// <item>each program's T_s, T_1 and F_P alone at P = 1 … N (<c>--factored measure|FILE</c>, FILE a factored.json of
/// the same size).</item>
/// </list>
/// Then each profile is fitted to its measurement (<see cref="ModelCalibrator.Fit"/>: T_1 and the memory intensity)
/// and the models and <c>machine.json</c> are written, all or nothing.
/// </summary>
internal static class SimulateCalibrateCommand
{
    private const string Measure = "measure", Default = "default";

    /// <summary>Builds the command; <paramref name="sourceFactory"/> replaces the real measurements in tests.</summary>
    public static Command Create(Func<IFactoredMeasurementSource>? sourceFactory = null)
    {
        var programs = CommandInput.List("--programs", $"Programs to calibrate (default all: {SamplePrograms.Skeletons.Names}).");
        var size = CommandInput.Declare<string>("--size", "small, medium or thesis (default small).", "small");
        var runs = CommandInput.Declare<int>("--runs", "Profiled runs per program, after one warm-up; the minimum time per level and phase is kept (default 5).", 5);
        var granularityCores = CommandInput.Declare<int>("--granularity-cores",
            "Core count the automatic granularity is set for while profiling, so the profile has several levels (default 16).", 16);
        var maxWorkers = CommandInput.Declare<int?>("--max-workers",
            "P of the work-inflation measurements: each program and the microbenchmark alone at P = 1 … N (default: the CPU budget; "
            + "see 'divcon topology'). Above the budget only with --over-budget.");
        var overBudget = CommandInput.OverBudget();
        var factoredRuns = CommandInput.Declare<int>("--factored-runs",
            "Timed rounds of T_s, T_1 … T_N per program and for the microbenchmark, after one warm-up (default 3).", 3);
        var profiles = CommandInput.Declare<string>("--profiles",
            "Where the per-level profiles come from: measure (default), default (the shipped models), or a folder of models.", Measure);
        var factored = CommandInput.Declare<string>("--factored",
            "Where T_s, T_1 and F_P come from: measure (default), or a factored.json of the same size holding the programs "
            + "(and the microbenchmark 'workinflation', which is then used for --machine measure).", Measure);
        var machine = CommandInput.Declare<string>("--machine",
            "Where the memory contention comes from: measure (default: the work-inflation microbenchmark), default (the shipped machine.json), or a machine.json.",
            Measure);
        var output = CommandInput.Declare<string>("--out", "Folder for the <program>.json models and machine.json (default models).", "models");
        var command = new Command(
            "calibrate",
            "Measure simulator models on this machine: the memory contention (work-inflation microbenchmark), each program's per-level profile "
            + "(one task at a time) and its T_1 and work inflation F_P alone at P = 1 … N; fit each model's T_1 and memory intensity; write the models and machine.json.")
        {
            programs, size, runs, granularityCores, maxWorkers, overBudget, factoredRuns, profiles, factored, machine, output,
        };
        command.SetAction((parse, cancellationToken) =>
        {
            var problems = new List<string>();
            string[] names = CommandInput.SplitNames(parse.GetValue(programs)) is { Length: > 0 } p ? p : [.. SamplePrograms.Skeletons.All.Select(e => e.Name)];
            IReadOnlyList<ProgramEntry> entries = SamplePrograms.Skeletons.Resolve(names, problems);
            WorkloadSize problemSize = CommandInput.ReadSize(parse, size, problems);
            int runCount = CommandInput.AtLeast(parse, runs, 1, problems);
            int gCores = CommandInput.AtLeast(parse, granularityCores, 1, problems);
            int rounds = CommandInput.AtLeast(parse, factoredRuns, 1, problems);
            var (budget, workers, notes) = CommandInput.ReadWorkers(parse, maxWorkers, overBudget, problems);
            problems.AddIf(workers == 1, $"--max-workers must be at least 2: work inflation needs two workers{(budget.Cores < 2 ? $" (the CPU budget is {budget.Cores})" : string.Empty)}.");

            string profileSource = parse.GetValue(profiles) ?? Measure;
            problems.AddIf(profileSource is not (Measure or Default) && !Directory.Exists(profileSource), $"--profiles '{profileSource}' is neither measure, default nor a folder.");

            FactoredResult? fromFile = ReadFactored(parse.GetValue(factored) ?? Measure, problemSize, entries, problems);
            string machineSource = parse.GetValue(machine) ?? Measure;
            MachineModel? machineModel = machineSource switch
            {
                Measure => null,
                Default => ModelStore.LoadDefaultMachine(),
                _ => CommandInput.Read(() => ModelStore.ReadMachine(machineSource), problems, "--machine: "),
            };
            string outDir = CommandInput.ReadOut(parse, output, problems);
            return ExperimentRunner.RunAsync(parse, "simulate calibrate", problems, outDir,
                (progress, ct) =>
                {
                    FactoredProgramResult? microbenchmark = fromFile?.Programs.FirstOrDefault(r => r.Program == WorkInflationBenchmark.ProgramName);
                    string? microbenchmarkFile = microbenchmark is null ? null : parse.GetValue(factored);
                    WorkInflationParameters wi = WorkInflationParameters.For(SamplePrograms.Size(problemSize));
                    string parameters = string.Create(CultureInfo.InvariantCulture, $"M = {wi.ArraySize}, L = {wi.Load}, G = {wi.Gap}, R = {wi.Repeats}");
                    if (machineModel is null && microbenchmark is null)
                    {
                        ProgramEntry entry = SamplePrograms.Factored.Find(WorkInflationBenchmark.ProgramName)!;
                        microbenchmark = IsolatedMeasurement.Measure([entry], problemSize, SimulationModels.SamplesSeed, workers, rounds, 1, budget, sourceFactory, progress, ct)[0];
                    }

                    machineModel ??= ModelCalibrator.Machine(microbenchmark!, parameters, Where(
                        $"the work-inflation microbenchmark ({parameters}) at size {CommandInput.Name(problemSize)}, P = 1 … {microbenchmark!.Points.Max(x => x.P)}",
                        microbenchmarkFile));
                    var simulation = new SimulationParameters { MemoryContention = machineModel.MemoryContention };

                    IReadOnlyList<FactoredProgramResult> measured = fromFile is null
                        ? IsolatedMeasurement.Measure(entries, problemSize, SimulationModels.SamplesSeed, workers, rounds, 1, budget, sourceFactory, progress, ct)
                        : [.. entries.Select(e => fromFile.Programs.First(r => r.Program == e.Name))];
                    int granularity = fromFile?.Settings.WorkerCounts.Max() ?? workers;
                    var fits = new List<CalibrationFit>();
                    foreach (ProgramEntry entry in entries)
                    {
                        ct.ThrowIfCancellationRequested();
                        ProgramModel profiled = Profiled(entry, profileSource, problemSize, runCount, gCores, progress, ct);
                        FactoredProgramResult times = measured.First(r => r.Program == entry.Name);
                        string source = string.Create(CultureInfo.InvariantCulture,
                            $"{profiled.Source}; fitted by 'divcon simulate calibrate' to T_s, T_1 and F_P alone at P = 1 … {times.Points.Max(x => x.P)} (size {CommandInput.Name(problemSize)}, granularity for {granularity} cores), {How(fromFile is null ? null : parse.GetValue(factored))}");
                        fits.Add(ModelCalibrator.Fit(profiled, times, granularity, simulation, source));
                    }

                    return Task.FromResult(new Calibration(machineModel, fits));
                },
                c => [
                    .. c.Fits.Select(f => (f.Model.Name + ".json", Encoding.UTF8.GetBytes(ModelStore.ToJson(f.Model)))),
                    (MachineModel.FileName, Encoding.UTF8.GetBytes(ModelStore.MachineToJson(c.Machine))),
                ],
                Table,
                cancellationToken,
                notes);
        });
        return command;
    }

    /// <summary>What a calibration produced.</summary>
    internal sealed record Calibration(MachineModel Machine, IReadOnlyList<CalibrationFit> Fits);

    /// <summary>The summary table: β, and per program the fit.</summary>
    internal static string Table(Calibration c)
    {
        var sb = new StringBuilder();
        sb.Append(CultureInfo.InvariantCulture, $"memory contention β = {c.Machine.MemoryContention:0.####} ({c.Machine.Source})\n");
        sb.Append(CultureInfo.InvariantCulture, $"{"program",-14} {"T_s s",8} {"T_1 s",8} {"work x",7} {"P",3} {"F_P/T_1",8} {"sim",8} {"intensity",9}  note\n");
        foreach (CalibrationFit f in c.Fits)
        {
            FitMeasurement m = f.Model.FittedTo!;
            sb.Append(CultureInfo.InvariantCulture,
                $"{f.Model.Name,-14} {m.TsSeconds,8:0.000} {m.T1Seconds,8:0.000} {m.WorkFactor,7:0.000} {m.Cores,3} {m.FpSeconds / m.T1Seconds,8:0.0000} {m.SimulatedInflation,8:0.0000} {f.Model.MemoryIntensity,9:0.0000}  {f.Note}\n");
        }

        return sb.ToString();
    }

    private static string Where(string what, string? file) => $"calibrated by 'divcon simulate calibrate' from {what}, {How(file)}";

    private static string How(string? file) => string.Create(CultureInfo.InvariantCulture,
        $"{(file is null ? "measured" : $"read from {Path.GetFileName(Path.GetDirectoryName(Path.GetFullPath(file)))}/{Path.GetFileName(file)}")} on a {Environment.ProcessorCount}-core {System.Runtime.InteropServices.RuntimeInformation.OSDescription.Trim()} machine");

    private static ProgramModel Profiled(ProgramEntry entry, string source, WorkloadSize size, int runs, int granularityCores, Harness.Progress.IRunProgress progress, CancellationToken ct)
    {
        if (source != Measure)
        {
            var problems = new List<string>();
            return SimulationModels.Load(entry.Name, source == Default ? null : source, size, problems)
                ?? throw new InvalidOperationException(string.Join(" ", problems));
        }

        progress.Phase($"{entry.Name}: phase profile, {runs} runs one task at a time", 1);
        ProgramModel model = Profile(entry, size, runs, granularityCores, ct);
        progress.Advance(1, string.Create(CultureInfo.InvariantCulture, $"{entry.Name}: {model.Levels.Count} levels, work {model.TotalWorkNs / 1e6:0.0} ms per run"));
        return model;
    }

    /// <summary>Profiles <paramref name="runs"/> runs of one sample program one task at a time and calibrates its model's shape.</summary>
    internal static ProgramModel Profile(ProgramEntry entry, WorkloadSize size, int runs, int granularityCores, CancellationToken cancellationToken)
    {
        var program = (ISkeletonProgram)entry.Create(size, SimulationModels.SamplesSeed);
        var profiler = new PhaseProfiler();
        program.UseAutomaticGranularity(granularityCores);
        program.Profiler = profiler;
        program.Initialize();
        return ModelCalibrator.Profile(entry.Name, program.BranchingFactor, program.ProblemSize, profiler, program.RunAsync, program.Verify, runs,
            $"size {CommandInput.Name(size)} (granularity for {granularityCores} cores", cancellationToken);
    }

    private static FactoredResult? ReadFactored(string value, WorkloadSize size, IReadOnlyList<ProgramEntry> entries, List<string> problems)
    {
        if (value == Measure)
        {
            return null;
        }

        if (CommandInput.Read(() => ResultKinds.Factored.Read(File.ReadAllText(value)), problems, $"--factored '{value}': ") is not { } result)
        {
            return null;
        }

        problems.AddIf(result.Size != CommandInput.Name(size), $"--factored '{value}' was measured at size {result.Size}, not {CommandInput.Name(size)}.");

        problems.AddRange(entries.Where(e => result.Programs.All(r => r.Program != e.Name)).Select(e => $"--factored '{value}' has no measurement of {e.Name}."));

        problems.AddIf(result.Settings.WorkerCounts.Max() < 2, $"--factored '{value}' was measured on one worker only: it has no work inflation.");

        return result;
    }
}
