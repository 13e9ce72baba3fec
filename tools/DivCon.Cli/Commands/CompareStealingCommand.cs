using System.CommandLine;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using DivCon.Harness.Anova;
using DivCon.Harness.Factored;
using DivCon.Harness.Programs;
using DivCon.Samples;
using DivCon.Scheduling;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon compare-stealing</c>: seed 002's comparison of restricted (cache-group-first) and unrestricted work
/// stealing. Each program runs R times under each <see cref="StealingScope"/> on a fresh
/// <see cref="WorkStealingTaskScheduler"/> (one discarded warm-up run per program first; the scope order alternates
/// between replications to spread drift over both); the times go into a two-factor (program × scope) full-factorial
/// ANOVA with replications and 90 % intervals. Defaults (3 programs, 5 replications, size small) take well under a
/// minute on a 2-core machine.
/// </summary>
internal static class CompareStealingCommand
{
    private static readonly string[] s_defaultPrograms = ["mergesort", "quicksort", "strassen"];
    private static readonly StealingScope[] s_scopes = [StealingScope.All, StealingScope.CacheGroupFirst];

    /// <summary>
    /// Creates the command. <paramref name="schedulerFactory"/> builds the scheduler for (scope, workers); null uses a
    /// <see cref="WorkStealingTaskScheduler"/> with that scope and the --stealing-groups groups (default: this machine's topology).
    /// </summary>
    public static Command Create(ProgramCatalog catalog, Func<StealingScope, int, WorkStealingTaskScheduler>? schedulerFactory = null)
    {
        CpuTopology? topology = null;
        CpuTopology Topology() => topology ??= CpuTopology.Detect();

        var programsOption = new Option<string[]>("--programs")
        {
            Description = $"Programs (rows of the design, at least 2), comma- or space-separated (default: {string.Join(",", s_defaultPrograms)}). "
                + $"Known: {string.Join(", ", catalog.All.Select(e => e.Name))}.",
            AllowMultipleArgumentsPerToken = true,
            DefaultValueFactory = _ => s_defaultPrograms,
        };
        var replicationsOption = new Option<int>("--replications") { Description = "Runs per program and scope, at least 2 (default 5).", DefaultValueFactory = _ => 5 };
        var workersOption = new Option<int>("--workers") { Description = "Workers of each scheduler (default: processor count).", DefaultValueFactory = _ => Environment.ProcessorCount };
        var sizeOption = new Option<string>("--size") { Description = "Problem size: small or medium (default small).", DefaultValueFactory = _ => "small" };
        var outOption = new Option<string>("--out") { Description = "Output folder (default results/compare-stealing).", DefaultValueFactory = _ => Path.Combine("results", "compare-stealing") };
        var groupsOption = new Option<string>("--stealing-groups")
        {
            Description = "The stealing groups of both scopes: detected (this machine's last-level caches), per-worker (each worker alone: every "
                + "steal is remote, the restricted sweep's cost without its benefit) or explicit worker groups such as '0;1'.",
            DefaultValueFactory = _ => FactoredStealing.DetectedGroups,
        };
        var command = new Command("compare-stealing",
            "Seed 002's comparison: each program R times under stealing scopes All and CacheGroupFirst; times, local/remote steals, scheduling overhead "
            + "and idle time; two-factor ANOVA (program × scope) with 90 % intervals; writes compare-stealing.json and compare-stealing.md.")
        {
            programsOption, replicationsOption, workersOption, sizeOption, outOption, groupsOption,
        };

        command.SetAction(async (parse, ct) =>
        {
            TextWriter output = parse.InvocationConfiguration.Output;
            TextWriter error = parse.InvocationConfiguration.Error;
            var problems = new List<string>();

            string[] names = HarnessCommandRunner.SplitNames(parse.GetValue(programsOption));
            if (names.Length < 2)
            {
                problems.Add($"--programs needs at least 2 programs (the ANOVA's rows); valid programs: {string.Join(", ", catalog.All.Select(e => e.Name))}.");
            }

            foreach (var dup in names.GroupBy(n => n, StringComparer.OrdinalIgnoreCase).Where(g => g.Count() > 1))
            {
                problems.Add($"program '{dup.Key}' is listed more than once.");
            }

            List<ProgramEntry> entries = HarnessCommandRunner.ResolvePrograms(catalog, names, problems);
            int replications = parse.GetValue(replicationsOption);
            if (replications < 2)
            {
                problems.Add($"--replications must be at least 2 (the ANOVA's error needs replications); got {replications}.");
            }

            int workers = parse.GetValue(workersOption);
            if (workers < 1 || workers > WorkStealingSchedulerOptions.MaxWorkerCount)
            {
                problems.Add($"--workers must be between 1 and {WorkStealingSchedulerOptions.MaxWorkerCount}; got {workers}.");
            }

            string sizeText = parse.GetValue(sizeOption) ?? string.Empty;
            ProblemSize size = sizeText.ToLowerInvariant() switch
            {
                "small" => ProblemSize.Small,
                "medium" => ProblemSize.Medium,
                _ => (ProblemSize)(-1),
            };
            if (size < 0)
            {
                problems.Add($"--size '{sizeText}' is not allowed; use small or medium.");
            }

            string outDir = parse.GetValue(outOption) ?? string.Empty;
            if (string.IsNullOrWhiteSpace(outDir))
            {
                problems.Add("--out needs a folder.");
            }
            else if (File.Exists(outDir))
            {
                problems.Add($"--out '{outDir}' is a file; give a folder.");
            }

            FactoredStealing? stealing = FactoredStealing.Parse(
                "all", parse.GetValue(groupsOption), Math.Clamp(workers, 1, WorkStealingSchedulerOptions.MaxWorkerCount), problems);
            if (problems.Count > 0)
            {
                foreach (string p in problems)
                {
                    await error.WriteLineAsync($"divcon compare-stealing: {p}");
                }

                return CliApp.UsageError;
            }

            // The same groups under both scopes, so that local and remote steals compare (FactoredStealing.Options).
            Func<StealingScope, int, WorkStealingTaskScheduler> factory = schedulerFactory ?? ((scope, n) =>
            {
                IReadOnlyList<IReadOnlyList<int>>? slots = stealing!.GroupsFor(n);
                return new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions
                {
                    WorkerCount = n,
                    StealingScope = scope,
                    StealingGroups = slots,
                    StealingTopology = slots is null ? Topology() : null,
                });
            });
            int cacheGroups = Topology().CacheGroups.Count;
            IReadOnlyList<IReadOnlyList<int>>? groups = stealing!.GroupsFor(workers);
            string topologyNote = groups is not null
                ? $"Synthetic stealing groups ({stealing.Groups}: {FactoredStealing.Format(groups)}) under both scopes; this machine has {cacheGroups} last-level cache group(s), so the comparison shows the restricted sweep's cost, not a locality benefit."
                : cacheGroups <= 1
                    ? "This machine has one last-level cache group: CacheGroupFirst degenerates to All (every steal is local), so any difference below is noise. --stealing-groups per-worker measures the restricted sweep's cost instead."
                    : $"This machine has {cacheGroups} last-level cache groups.";
            await output.WriteLineAsync(topologyNote);

            var runs = new List<RunRecord>();
            for (int p = 0; p < entries.Count; p++)
            {
                // Warm-up (JIT, allocations), discarded.
                await RunOnceAsync(entries[p], size, seed: 0, StealingScope.All, workers, factory, ct);
                for (int rep = 0; rep < replications; rep++)
                {
                    IEnumerable<StealingScope> order = rep % 2 == 0 ? s_scopes : s_scopes.Reverse();
                    foreach (StealingScope scope in order)
                    {
                        runs.Add(await RunOnceAsync(entries[p], size, seed: rep + 1, scope, workers, factory, ct));
                    }
                }
            }

            string[] rows = entries.Select(e => e.Name).ToArray();
            string[] columns = s_scopes.Select(s => s.ToString()).ToArray();
            double[][][] y = rows.Select(r => columns.Select(c => runs.Where(x => x.Program == r && x.Scope == c).Select(x => x.Seconds).ToArray()).ToArray()).ToArray();
            TwoFactorAnovaResult anova = TwoFactorAnova.Analyze(rows, columns, y, confidence: 0.90);
            EffectInterval contrast = anova.ColumnContrast(1, 0);

            Directory.CreateDirectory(outDir);
            var json = new
            {
                machine = new { processors = Environment.ProcessorCount, cacheGroups, note = topologyNote },
                stealingGroups = groups is null ? stealing.Groups : FactoredStealing.Format(groups),
                workers,
                size = sizeText.ToLowerInvariant(),
                replications,
                runs,
                anova = new
                {
                    rows = anova.RowLevels,
                    columns = anova.ColumnLevels,
                    cellMeans = anova.CellMeans,
                    grandMean = anova.GrandMean,
                    rowEffects = anova.RowEffects,
                    columnEffects = anova.ColumnEffects,
                    interactions = anova.Interactions,
                    table = anova.Table,
                    confidence = anova.Confidence,
                    contrast,
                },
            };
            var jsonOptions = new JsonSerializerOptions { WriteIndented = true, NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals };
            string md = Markdown(rows, columns, runs, anova, contrast, topologyNote, workers, sizeText, replications);
            await File.WriteAllTextAsync(Path.Combine(outDir, "compare-stealing.json"), JsonSerializer.Serialize(json, jsonOptions), ct);
            await File.WriteAllTextAsync(Path.Combine(outDir, "compare-stealing.md"), md, ct);
            await output.WriteAsync(md);
            await output.WriteLineAsync($"Wrote {Path.Combine(outDir, "compare-stealing.json")} and compare-stealing.md.");
            return 0;
        });
        return command;
    }

    private static async Task<RunRecord> RunOnceAsync(
        ProgramEntry entry, ProblemSize size, int seed, StealingScope scope, int workers, Func<StealingScope, int, WorkStealingTaskScheduler> factory, CancellationToken ct)
    {
        ISampleProgram program = entry.Create(size, seed);
        using WorkStealingTaskScheduler scheduler = factory(scope, workers);
        scheduler.ResetStatistics();
        long start = Stopwatch.GetTimestamp();
        await program.RunParallelAsync(scheduler, ct);
        TimeSpan elapsed = Stopwatch.GetElapsedTime(start);
        SchedulerStatistics stats = scheduler.GetStatistics();
        program.Verify();
        return new RunRecord(entry.Name, scope.ToString(), seed, elapsed.TotalSeconds, stats.Steals, stats.LocalSteals, stats.RemoteSteals,
            stats.SchedulingOverhead.TotalSeconds, stats.WaitingTime.TotalSeconds, stats.BusyTime.TotalSeconds);
    }

    private static string Markdown(
        string[] rows, string[] columns, List<RunRecord> runs, TwoFactorAnovaResult anova, EffectInterval contrast, string note, int workers, string size, int replications)
    {
        static string F(double v) => v.ToString("G4", CultureInfo.InvariantCulture);
        var sb = new StringBuilder();
        sb.AppendLine("# compare-stealing").AppendLine();
        sb.AppendLine($"{note} Workers: {workers}; size: {size}; replications: {replications}.").AppendLine();
        sb.AppendLine("| program | scope | mean time (s) | steals | local | remote | sched. overhead (s) | idle (s) | busy (s) |");
        sb.AppendLine("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        foreach (string r in rows)
        {
            foreach (string c in columns)
            {
                var cell = runs.Where(x => x.Program == r && x.Scope == c).ToList();
                sb.AppendLine($"| {r} | {c} | {F(cell.Average(x => x.Seconds))} | {F(cell.Average(x => x.Steals))} | {F(cell.Average(x => x.LocalSteals))} | "
                    + $"{F(cell.Average(x => x.RemoteSteals))} | {F(cell.Average(x => x.SchedulingOverheadSeconds))} | {F(cell.Average(x => x.IdleSeconds))} | {F(cell.Average(x => x.BusySeconds))} |");
            }
        }

        sb.AppendLine().AppendLine($"## Effects ({anova.Confidence:P0} intervals)").AppendLine();
        sb.AppendLine("| effect | estimate | lower | upper | significant |").AppendLine("|---|---:|---:|---:|---|");
        foreach (EffectInterval e in new[] { anova.GrandMean }.Concat(anova.RowEffects).Concat(anova.ColumnEffects).Append(contrast))
        {
            sb.AppendLine($"| {e.Name} | {F(e.Effect)} | {F(e.Lower)} | {F(e.Upper)} | {(e.IsSignificant ? "yes" : "no")} |");
        }

        sb.AppendLine().AppendLine("## ANOVA (A = program, B = stealing scope)").AppendLine();
        sb.AppendLine("| source | SS | % var | df | MS | F | p |").AppendLine("|---|---:|---:|---:|---:|---:|---:|");
        foreach (AnovaSource s in anova.Table)
        {
            sb.AppendLine($"| {s.Source} | {F(s.SumOfSquares)} | {(s.PercentOfVariation is double pv ? F(pv) : "")} | {s.DegreesOfFreedom} | "
                + $"{(s.MeanSquare is double ms ? F(ms) : "")} | {(s.F is double f ? F(f) : "")} | {(s.P is double p ? F(p) : "")} |");
        }

        return sb.ToString();
    }

    private sealed record RunRecord(
        string Program, string Scope, int Seed, double Seconds, long Steals, long LocalSteals, long RemoteSteals,
        double SchedulingOverheadSeconds, double IdleSeconds, double BusySeconds);
}
