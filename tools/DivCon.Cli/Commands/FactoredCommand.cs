using System.CommandLine;
using System.Diagnostics;
using DivCon.Cli.Programs;
using DivCon.Harness.Factored;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Samples;
using DivCon.Samples.Sequences;
using DivCon.Scheduling;
using DivCon.Skeletons.Sequences;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon factored</c>: factored speedups of each program in isolation for P = 1 … N workers (seed 001 §2;
/// docs/DESIGN.md, "Factored speedups"). Per program: T_s, T_elision and one parallel run per P in each of R rounds (interleaved), on
/// work-stealing schedulers with idle counters; writes factored.json, factored.csv and, with <c>--plots png</c>,
/// one PNG per program with its figure's JSON beside it; prints the table. Cost: (runs + warm-up) rounds of
/// T_s + T_elision + T_1 + … + T_N per program; the defaults (5 programs, medium, 5 runs + 1 warm-up, N = 2) took
/// 6.5 minutes on a 2-core machine loaded by other jobs (rounds of 6–25 s), less on a quiet one; small takes seconds.
/// Issue 10: <c>--stealing</c> and <c>--stealing-groups</c> choose how the schedulers steal (recorded in the output with
/// the steal counts and seed 002's overhead/waiting split of I_P); the memory-bound sequence transforms
/// transform-none / -static / -sliding take <c>--grain</c> and <c>--window-size</c>.
/// Issue 21: N defaults to the CPU budget (a 1-CPU container measures P = 1 only); above it the command refuses unless
/// <c>--over-budget</c>, and every run's cgroup throttling is recorded and reported apart from F_P.
/// </summary>
internal static class FactoredCommand
{
    public static Command Create(ProgramCatalog catalog, Func<IFactoredMeasurementSource>? sourceFactory = null)
    {
        ArgumentNullException.ThrowIfNull(catalog);
        var programsOption = CommandInput.List("--programs",
            $"Programs, comma- or space-separated (default: {string.Join(",", ProgramCatalog.FullSuite)}). Known: {catalog.Names}.", ProgramCatalog.FullSuite);
        var sizeOption = CommandInput.Size();
        var runsOption = CommandInput.Declare("--runs", "Timed runs of each kind per worker count (means over them).", 5);
        var warmupOption = CommandInput.Declare("--warmup", "Untimed runs of each kind before the timed ones.", 1);
        var maxWorkersOption = CommandInput.Declare<int?>("--max-workers",
            "Largest P (default: the CPU budget, i.e. the processors this process may use lowered to a cgroup CPU quota or DOTNET_PROCESSOR_COUNT; "
            + "see 'divcon topology'); P = 1 … N are measured. Above the budget only with --over-budget.");
        var overBudgetOption = CommandInput.OverBudget();
        var seedOption = CommandInput.Declare("--seed", "Seeds the programs' inputs.", SampleCatalog.DefaultSeed);
        var outOption = CommandInput.Out(Path.Combine("results", "factored"));
        var plotsOption = CommandInput.Plots();
        var stealingOption = CommandInput.Declare<string>("--stealing",
            "Victim order of the work-stealing schedulers: all (any other worker) or cache-group-first (the thief's stealing group first, then the others).", "all");
        var groupsOption = CommandInput.Declare<string>("--stealing-groups",
            "Stealing groups: detected (this machine's last-level cache groups), per-worker (each worker alone: every steal is remote), "
            + "or worker-index groups of the largest P such as '0;1' or '0,1;2,3' (a P-worker scheduler keeps the workers below P).", FactoredStealing.DetectedGroups);
        var grainOption = CommandInput.Declare<int?>("--grain",
            $"Blocks (of 64 doubles) per task of the transform-* programs (default {SequenceTransform.DefaultGrain}).");
        var windowOption = CommandInput.Declare<int?>("--window-size",
            "Window m in blocks of transform-static and transform-sliding (at least the grain; default: half the last-level cache / 1536 bytes per block).");
        var nestedOption = CommandInput.Declare<string?>("--nested",
            "Nested parallelism in the level-1 split and merge of strassen, quicksort and mergesort: on or off "
            + "(default: each program's own default: on for strassen and mergesort, off for quicksort).");
        var command = new Command("factored",
            "Factored speedups (Acar, Charguéraud, Rainey): T_s, T_1, T_P, idle time I_P and T_elision per program for P = 1 … N; "
            + "derives work W_P and inflation F_P and the linear, maximal, idle-time-specific, inflation-specific, actual and elision speedups; "
            + "writes factored.json, factored.csv and a PNG per program.")
        {
            programsOption, sizeOption, runsOption, warmupOption, maxWorkersOption, overBudgetOption, seedOption, outOption, plotsOption,
            stealingOption, groupsOption, grainOption, windowOption, nestedOption,
        };

        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            string[] names = CommandInput.SplitNames(parse.GetValue(programsOption));
            ProgramCatalog programs = TransformCatalog(catalog, names, parse.GetValue(grainOption), parse.GetValue(windowOption), problems);
            IReadOnlyList<ProgramEntry> entries = programs.Resolve(names, problems);
            WorkloadSize size = CommandInput.ReadSize(parse, sizeOption, problems);
            int runs = CommandInput.AtLeast(parse, runsOption, 1, problems);
            int warmup = CommandInput.AtLeast(parse, warmupOption, 0, problems);
            var (budget, maxWorkers, notes) = CommandInput.ReadWorkers(parse, maxWorkersOption, overBudgetOption, problems);

            FactoredStealing? stealing = FactoredStealing.Parse(parse.GetValue(stealingOption), parse.GetValue(groupsOption), Math.Max(1, maxWorkers), problems);
            bool png = CommandInput.ReadPlots(parse, plotsOption, problems);
            bool? nested = CommandInput.ReadSwitch(parse.GetValue(nestedOption), "--nested", "on", "off", problems);
            // Last: the folder is made only when everything else is valid.
            string outFolder = CommandInput.ReadOut(parse, outOption, problems);
            int seed = parse.GetValue(seedOption);
            var settings = new FactoredSettings(Enumerable.Range(1, Math.Max(1, maxWorkers)).ToArray(), runs, warmup);
            return ExperimentRunner.RunAsync(parse, "factored", problems, outFolder,
                (progress, ct) =>
                {
                    DateTimeOffset started = DateTimeOffset.UtcNow;
                    long startTicks = Stopwatch.GetTimestamp();
                    stealing = stealing! with { DetectedCacheGroups = CpuTopology.Detect().CacheGroups.Count };
                    var programSettings = new Dictionary<string, string>(StringComparer.Ordinal);
                    IReadOnlyList<FactoredProgramResult> results = IsolatedMeasurement.Measure(entries, size, seed, maxWorkers, runs, warmup, budget, sourceFactory,
                        progress, ct, stealing, (name, program) =>
                        {
                            if (program is SampleWorkload { Program: SequenceTransform transform })
                            {
                                programSettings[name] = transform.Describe();
                            }

                            if (program is SampleWorkload { Program: INestedParallelSample nestedSample })
                            {
                                nestedSample.ParallelSplitAndMerge = nested ?? nestedSample.ParallelSplitAndMerge;
                                programSettings[name] = nestedSample.ParallelSplitAndMerge
                                    ? "nested parallelism on: level-1 split and merge shared among the workers"
                                    : "nested parallelism off: level-1 split and merge on one worker";
                            }
                        });

                    return Task.FromResult(new FactoredResult(CommandInput.Name(size), seed, settings, results, stealing.ToRecord(settings.WorkerCounts),
                        programSettings.Count > 0 ? programSettings : null)
                    {
                        StartedUtc = started,
                        ElapsedSeconds = Stopwatch.GetElapsedTime(startTicks).TotalSeconds,
                        Machine = MachineInfo.Capture(budget),
                    });
                },
                result => ResultKinds.Factored.Files(result, png), ResultKinds.Factored.Table, ct, notes);
        });
        return command;
    }

    // The catalogue with the transforms made for --grain and --window-size, which apply only to the transforms asked for.
    private static ProgramCatalog TransformCatalog(ProgramCatalog catalog, string[] names, int? grain, int? windowSize, List<string> problems)
    {
        WindowMode[] modes = names.Select(SequenceTransform.ModeOf).OfType<WindowMode>().ToArray();
        problems.AddIf(grain < 1, $"--grain must be at least 1; got {grain}.");
        problems.AddIf(windowSize < Math.Max(1, grain ?? SequenceTransform.DefaultGrain),
            $"--window-size must be at least the grain ({grain ?? SequenceTransform.DefaultGrain}); got {windowSize}.");
        problems.AddIf(grain is not null && modes.Length == 0, $"--grain applies only to {string.Join(", ", SequenceTransform.Names)}; none of them is in --programs.");
        problems.AddIf(windowSize is not null && !modes.Any(mode => mode != WindowMode.None), "--window-size applies only to transform-static and transform-sliding; neither is in --programs.");

        return modes.Aggregate(catalog, (c, mode) => c.With(SamplePrograms.Transform(mode, Math.Max(1, grain ?? SequenceTransform.DefaultGrain), windowSize)));
    }
}
