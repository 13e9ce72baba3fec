using System.CommandLine;
using DivCon.Harness.Experiments;
using DivCon.Harness.Factored;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Scheduling;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon compare-stealing</c>: seed 002's comparison of restricted (cache-group-first) and unrestricted work
/// stealing (<see cref="CompareStealingExperiment"/>). Defaults (3 programs, 5 replications, size small) take well
/// under a minute on a 2-core machine.
/// </summary>
internal static class CompareStealingCommand
{
    private static readonly string[] s_defaultPrograms = ["mergesort", "quicksort", "strassen"];

    /// <summary>
    /// Creates the command. <paramref name="schedulerFactory"/> builds the scheduler for (scope, workers); null uses a
    /// <see cref="WorkStealingTaskScheduler"/> with that scope and the --stealing-groups groups (default: this machine's topology).
    /// </summary>
    public static Command Create(ProgramCatalog catalog, Func<StealingScope, int, WorkStealingTaskScheduler>? schedulerFactory = null)
    {
        CpuTopology? topology = null;
        CpuTopology Topology() => topology ??= CpuTopology.Detect();

        var programsOption = CommandInput.List("--programs",
            $"Programs (rows of the design, at least 2), comma- or space-separated (default: {string.Join(",", s_defaultPrograms)}). Known: {catalog.Names}.", s_defaultPrograms);
        var replicationsOption = CommandInput.Declare<int>("--replications", "Runs per program and scope, at least 2 (default 5).", 5);
        var workersOption = CommandInput.Declare<int?>("--workers",
            "Workers of each scheduler (default: the CPU budget, see 'divcon topology'; more only with --over-budget).");
        var overBudgetOption = CommandInput.OverBudget();
        var sizeOption = CommandInput.Size("small", "small or medium (default small)");
        var outOption = CommandInput.Out(Path.Combine("results", "compare-stealing"));
        var groupsOption = CommandInput.Declare<string>("--stealing-groups",
            "The stealing groups of both scopes: detected (this machine's last-level caches), per-worker (each worker alone: every "
            + "steal is remote, the restricted sweep's cost without its benefit) or explicit worker groups such as '0;1'.", FactoredStealing.DetectedGroups);
        var command = new Command("compare-stealing",
            "Seed 002's comparison: each program R times under stealing scopes All and CacheGroupFirst; times, local/remote steals, scheduling overhead "
            + "and idle time; two-factor ANOVA (program × scope) with 90 % intervals; writes compare-stealing.json and compare-stealing.md.")
        {
            programsOption, replicationsOption, workersOption, overBudgetOption, sizeOption, outOption, groupsOption,
        };

        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            IReadOnlyList<ProgramEntry> entries = catalog.Resolve(CommandInput.SplitNames(parse.GetValue(programsOption)), problems, minimum: 2);
            int replications = CommandInput.AtLeast(parse, replicationsOption, 2, problems, " (the ANOVA's error needs replications)");
            var (budget, workers, notes) = CommandInput.ReadWorkers(parse, workersOption, overBudgetOption, problems);

            WorkloadSize size = CommandInput.ReadSize(parse, sizeOption, problems, WorkloadSize.Small, WorkloadSize.Medium);
            FactoredStealing? stealing = FactoredStealing.Parse(
                "all", parse.GetValue(groupsOption), Math.Clamp(workers, 1, WorkStealingSchedulerOptions.MaxWorkerCount), problems);
            string outFolder = CommandInput.ReadOut(parse, outOption, problems);

            // The same groups under both scopes, so that local and remote steals compare (FactoredStealing.Options).
            Func<StealingScope, int, WorkStealingTaskScheduler> factory = schedulerFactory
                ?? ((scope, n) => new WorkStealingTaskScheduler(stealing!.Options(n, "DivCon worker", Topology, budget, scope)));
            return ExperimentRunner.RunAsync(parse, CompareStealingResult.FileKind, problems, outFolder,
                (progress, token) =>
                {
                    int cacheGroups = Topology().CacheGroups.Count;
                    IReadOnlyList<IReadOnlyList<int>>? groups = stealing!.GroupsFor(workers);
                    string note = groups is not null
                        ? $"Synthetic stealing groups ({stealing.Groups}: {FactoredStealing.Format(groups)}) under both scopes; this machine has {cacheGroups} last-level cache group(s), so the comparison shows the restricted sweep's cost, not a locality benefit."
                        : cacheGroups <= 1
                            ? "This machine has one last-level cache group: CacheGroupFirst degenerates to All (every steal is local), so any difference below is noise. --stealing-groups per-worker measures the restricted sweep's cost instead."
                            : $"This machine has {cacheGroups} last-level cache groups.";
                    return CompareStealingExperiment.RunAsync(entries, size, replications, workers, factory,
                        (note, cacheGroups, groups is null ? stealing.Groups : FactoredStealing.Format(groups)), progress, token, budget);
                },
                result => ResultKinds.CompareStealing.Files(result, png: false), ResultKinds.CompareStealing.Table, ct, notes);
        });
        return command;
    }
}
