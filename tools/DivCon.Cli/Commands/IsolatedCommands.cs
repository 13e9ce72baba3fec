using System.CommandLine;
using DivCon.Cli.Programs;
using DivCon.Harness.Experiments;
using DivCon.Harness.Progress;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Scheduling;

namespace DivCon.Cli.Commands;

/// <summary>
/// The isolated experiments, each program alone on the sample programs: <c>scalability</c>, <c>granularity</c> and
/// <c>phases</c>. They share their options (programs, size, runs, warm-up, cores, seed, plots, out) and how they write
/// their result kind; each adds one option of its own.
/// </summary>
internal static class IsolatedCommands
{
    private delegate Task<T> Experiment<T>(ExperimentSettings settings, ProgramCatalog programs, IRunProgress progress, CancellationToken cancellationToken);

    /// <summary>
    /// <c>divcon scalability</c>: speedup vs cores (thesis §7.2, Figures 7.3–7.4). Per program: T_s, then T_P on a pinned
    /// work-stealing scheduler for P = 1 … N processors chosen contiguously and/or dispersed. At medium size on 2 cores:
    /// 5 programs × (1 + 3) sequential runs + 2 selections × 2 P × (1 + 3) parallel runs ≈ 5 × 20 × 0.5–1 s ≈ 1–2 min.
    /// </summary>
    public static Command Scalability()
    {
        var selection = CommandInput.List("--selection",
            "Processor selections, comma- or space-separated: contiguous, dispersed (default: both).", ["contiguous", "dispersed"]);
        return Create("scalability",
            "Speedup vs cores (§7.2, Figures 7.3–7.4): T_s and T_P of each program alone on a pinned work-stealing scheduler, P = 1 … N, "
            + "processors chosen contiguously and dispersed; writes scalability.json, scalability.csv and speedup-*.png.",
            selection, ResultKinds.Scalability, (parse, problems) =>
            {
                problems.AddIf(CommandInput.SplitNames(parse.GetValue(selection)).Length == 0, "--selection needs contiguous, dispersed or both.");
                List<ProcessorSelection> selections = CommandInput.ReadEach(parse, selection, name =>
                    Enum.TryParse(name, ignoreCase: true, out ProcessorSelection s) && Enum.IsDefined(s) && !int.TryParse(name, out _)
                        ? [s]
                        : CommandInput.Problem<ProcessorSelection>(problems, $"--selection '{name}' is not a selection; use contiguous or dispersed."));

                return (settings, programs, progress, token) => ScalabilityExperiment.RunAsync(settings, programs, selections, CpuTopology.Detect(), progress, token);
            });
    }

    /// <summary>
    /// <c>divcon granularity</c>: time vs granularity (thesis §7.1, Figures 7.1–7.2): each program alone on all cores with
    /// granularity = problem size / 2^k, k = 0 … max-depth.
    /// </summary>
    public static Command Granularity()
    {
        var maxDepth = CommandInput.Declare<int>("--max-depth",
            $"Finest granularity: problem size / 2^max-depth (0 … {GranularityExperiment.MaxSupportedDepth}; the thesis goes to 16).", 12);
        return Create("granularity",
            "Time vs granularity (§7.1, Figures 7.1–7.2): each program alone on all cores, granularity halved from the problem size down to size / 2^max-depth; "
            + "writes granularity.json, granularity.csv and granularity*.png.",
            maxDepth, ResultKinds.Granularity, (parse, problems) =>
            {
                int depth = parse.GetValue(maxDepth);
                problems.AddIf(depth < 0 || depth > GranularityExperiment.MaxSupportedDepth, $"--max-depth must be between 0 and {GranularityExperiment.MaxSupportedDepth}; got {depth}.");

                return (settings, programs, progress, token) => GranularityExperiment.RunAsync(settings, programs, depth, progress, token);
            });
    }

    /// <summary>
    /// <c>divcon phases</c>: cumulative split / execute / merge time per recursion level (thesis §7.3, Figure 7.5), from
    /// the skeleton's PhaseProfiler, each program alone on all cores with the automatic granularity.
    /// </summary>
    public static Command Phases()
    {
        var muscles = CommandInput.Declare<int>("--muscles-per-core", "Target execute muscles per core of the automatic granularity (§4.5.2; default 4).", 4);
        return Create("phases",
            "Cumulative split / execute / merge time per recursion level (§7.3, Figure 7.5), per program, from the phase profiler; "
            + "writes phases.json, phases.csv and phases-{program}.png.",
            muscles, ResultKinds.Phases, (parse, problems) =>
            {
                int k = CommandInput.AtLeast(parse, muscles, 1, problems);
                return (settings, programs, progress, token) => PhasesExperiment.RunAsync(settings, programs, k, progress, token);
            });
    }

    /// <summary>
    /// A command with <paramref name="own"/> and the shared options: <paramref name="read"/> checks its own option and
    /// returns the experiment; the shared ones are checked next, then the experiment runs and its result is written as
    /// <paramref name="kind"/> says.
    /// </summary>
    private static Command Create<T>(string name, string description, Option own, ResultKind<T> kind, Func<ParseResult, List<string>, Experiment<T>> read)
        where T : ExperimentFile
    {
        var programsOption = CommandInput.List("--programs",
            $"Sample programs, comma- or space-separated (default: all). Known: {SamplePrograms.Skeletons.Names}.", SamplePrograms.Skeletons.All.Select(e => e.Name).ToArray());
        var sizeOption = CommandInput.Size();
        var runsOption = CommandInput.Declare("--runs", "Recorded runs per measured point (mean and 99 % interval over them).", 3);
        var warmupOption = CommandInput.Declare("--warmup", "Unrecorded runs before each measured point's runs.", 1);
        var coresOption = CommandInput.Cores();
        var overBudget = CommandInput.OverBudget();
        var seed = CommandInput.Declare("--seed", "Seeds the programs' inputs.", 1);
        var plots = CommandInput.Plots();
        var outOption = CommandInput.Out(Path.Combine("results", name));
        var command = new Command(name, description) { own, programsOption, sizeOption, runsOption, warmupOption, coresOption, overBudget, seed, outOption, plots };
        command.SetAction((parse, cancellationToken) =>
        {
            var problems = new List<string>();
            Experiment<T> run = read(parse, problems);
            IReadOnlyList<ProgramEntry> programs = SamplePrograms.Skeletons.Resolve(CommandInput.SplitNames(parse.GetValue(programsOption)), problems);
            WorkloadSize size = CommandInput.ReadSize(parse, sizeOption, problems);
            int runs = CommandInput.AtLeast(parse, runsOption, 1, problems);
            int warmup = CommandInput.AtLeast(parse, warmupOption, 0, problems);
            var (budget, processors, notes) = CommandInput.ReadCores(parse, coresOption, overBudget, problems);
            bool png = CommandInput.ReadPlots(parse, plots, problems);
            string outFolder = CommandInput.ReadOut(parse, outOption, problems);
            var settings = new ExperimentSettings(programs.Select(p => p.Name).ToArray(), size, runs, warmup, processors, parse.GetValue(seed), TimeSpan.FromMinutes(10))
            {
                Budget = budget,
            };
            return ExperimentRunner.RunAsync(parse, kind.Names[0], problems, outFolder,
                (progress, ct) => run(settings, SamplePrograms.Skeletons, progress, ct), r => kind.Files(r, png), kind.Table, cancellationToken, notes);
        });
        return command;
    }
}
