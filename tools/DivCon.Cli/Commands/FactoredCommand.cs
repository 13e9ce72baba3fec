using System.CommandLine;
using System.Diagnostics;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Factored;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Samples;
using DivCon.Samples.Sequences;
using DivCon.Samples.WorkInflation;
using DivCon.Scheduling;
using DivCon.Skeletons.Sequences;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon factored</c>: factored speedups of each program in isolation for P = 1 … N workers (seed 001 §2;
/// DESIGN.md §8). Per program: T_s, T_elision and one parallel run per P in each of R rounds (interleaved), on
/// work-stealing schedulers with idle counters; writes factored.json, factored.csv and, with <c>--plots png</c>,
/// one PNG per program with its figure's JSON beside it; prints the table. Cost: (runs + warm-up) rounds of
/// T_s + T_elision + T_1 + … + T_N per program; the defaults (5 programs, medium, 5 runs + 1 warm-up, N = 2) took
/// 6.5 minutes on a 2-core machine loaded by other jobs (rounds of 6–25 s), less on a quiet one; small takes seconds.
/// Issue 10: <c>--stealing</c> and <c>--stealing-groups</c> choose how the schedulers steal (recorded in the output with
/// the steal counts and seed 002's overhead/waiting split of I_P); the memory-bound sequence transforms
/// transform-none / -static / -sliding take <c>--grain</c> and <c>--window-size</c>.
/// </summary>
internal static class FactoredCommand
{
    public const int DefaultRuns = 5;

    public static Command Create(ProgramCatalog catalog, Func<IFactoredMeasurementSource>? sourceFactory = null)
    {
        ArgumentNullException.ThrowIfNull(catalog);
        catalog = catalog.With(ProgramEntry.Available(WorkInflationBenchmark.ProgramName,
            "Work-inflation microbenchmark (seed 000 §4): R passes of L additions per cell over M cells with gap G.",
            (size, seed) => SampleCatalog.Create(WorkInflationBenchmark.ProgramName, size, seed)));
        foreach (WindowMode mode in Enum.GetValues<WindowMode>())
        {
            catalog = catalog.With(TransformEntry(mode, SequenceTransform.DefaultGrain, null));
        }

        string known = string.Join(", ", catalog.Available.Select(e => e.Name));
        var programsOption = new Option<string[]>("--programs")
        {
            Description = $"Programs, comma- or space-separated (default: {string.Join(",", ProgramCatalog.FullSuite)}). Known: {known}.",
            AllowMultipleArgumentsPerToken = true,
            DefaultValueFactory = _ => ProgramCatalog.FullSuite.ToArray(),
        };
        var sizeOption = new Option<string>("--size") { Description = "Problem size: small, medium or thesis.", DefaultValueFactory = _ => "medium" };
        var runsOption = new Option<int>("--runs") { Description = "Timed runs of each kind per worker count (means over them).", DefaultValueFactory = _ => DefaultRuns };
        var warmupOption = new Option<int>("--warmup") { Description = "Untimed runs of each kind before the timed ones.", DefaultValueFactory = _ => 1 };
        var maxWorkersOption = new Option<int?>("--max-workers") { Description = "Largest P (default: the processors this process may use); P = 1 … N are measured." };
        var seedOption = new Option<int>("--seed") { Description = "Seeds the programs' inputs.", DefaultValueFactory = _ => SampleCatalog.DefaultSeed };
        var outOption = new Option<string>("--out") { Description = "Folder for the result files (created if missing).", DefaultValueFactory = _ => Path.Combine("results", "factored") };
        var plotsOption = new Option<string>("--plots") { Description = "png: one factored speedup plot per program (and its figure JSON); none: data only.", DefaultValueFactory = _ => "png" };
        var stealingOption = new Option<string>("--stealing")
        {
            Description = "Victim order of the work-stealing schedulers: all (any other worker) or cache-group-first (the thief's stealing group first, then the others).",
            DefaultValueFactory = _ => "all",
        };
        var groupsOption = new Option<string>("--stealing-groups")
        {
            Description = "Stealing groups: detected (this machine's last-level cache groups), per-worker (each worker alone: every steal is remote), "
                + "or worker-index groups of the largest P such as '0;1' or '0,1;2,3' (a P-worker scheduler keeps the workers below P).",
            DefaultValueFactory = _ => FactoredStealing.DetectedGroups,
        };
        var grainOption = new Option<int?>("--grain") { Description = $"Blocks (of 64 doubles) per task of the transform-* programs (default {SequenceTransform.DefaultGrain})." };
        var windowOption = new Option<int?>("--window-size")
        {
            Description = "Window m in blocks of transform-static and transform-sliding (at least the grain; default: half the last-level cache / 1536 bytes per block).",
        };
        var command = new Command("factored",
            "Factored speedups (Acar, Charguéraud, Rainey): T_s, T_1, T_P, idle time I_P and T_elision per program for P = 1 … N; "
            + "derives work W_P and inflation F_P and the linear, maximal, idle-time-specific, inflation-specific, actual and elision speedups; "
            + "writes factored.json, factored.csv and a PNG per program.")
        {
            programsOption, sizeOption, runsOption, warmupOption, maxWorkersOption, seedOption, outOption, plotsOption,
            stealingOption, groupsOption, grainOption, windowOption,
        };

        command.SetAction(async (parse, ct) =>
        {
            TextWriter output = parse.InvocationConfiguration.Output;
            TextWriter error = parse.InvocationConfiguration.Error;
            const string prefix = "divcon factored";
            var problems = new List<string>();

            string[] names = HarnessCommandRunner.SplitNames(parse.GetValue(programsOption));
            ProgramCatalog programs = TransformCatalog(catalog, names, parse.GetValue(grainOption), parse.GetValue(windowOption), problems);
            if (names.Length == 0)
            {
                problems.Add($"--programs needs at least one program; valid programs: {known}.");
            }

            foreach (var dup in names.GroupBy(n => n, StringComparer.OrdinalIgnoreCase).Where(g => g.Count() > 1))
            {
                problems.Add($"program '{dup.Key}' is listed more than once.");
            }

            List<ProgramEntry> entries = HarnessCommandRunner.ResolvePrograms(programs, names.Distinct(StringComparer.OrdinalIgnoreCase).ToArray(), problems);

            string sizeText = parse.GetValue(sizeOption) ?? string.Empty;
            if (!Enum.TryParse(sizeText, ignoreCase: true, out ProblemSize size) || !Enum.IsDefined(size) || int.TryParse(sizeText, out _))
            {
                problems.Add($"--size '{sizeText}' is not a size; use small, medium or thesis.");
            }

            int runs = parse.GetValue(runsOption);
            if (runs < 1)
            {
                problems.Add($"--runs must be at least 1; got {runs}.");
            }

            int warmup = parse.GetValue(warmupOption);
            if (warmup < 0)
            {
                problems.Add($"--warmup must be 0 or more; got {warmup}.");
            }

            int allowed = MachineInfo.AffinityMask().Count;
            int maxWorkers = parse.GetValue(maxWorkersOption) ?? allowed;
            if (maxWorkers < 1 || maxWorkers > allowed)
            {
                problems.Add($"--max-workers must be between 1 and {allowed} (the processors this process may use); got {maxWorkers}.");
            }

            FactoredStealing? stealing = FactoredStealing.Parse(parse.GetValue(stealingOption), parse.GetValue(groupsOption), Math.Max(1, maxWorkers), problems);
            string plots = (parse.GetValue(plotsOption) ?? string.Empty).Trim().ToLowerInvariant();
            if (plots is not ("png" or "none"))
            {
                problems.Add($"--plots '{parse.GetValue(plotsOption)}' is not allowed; use png or none.");
            }

            string outFolder = parse.GetValue(outOption) ?? string.Empty;
            CommandInput.CheckOutFolder(outFolder, problems);
            if (await CommandInput.ReportAsync(error, prefix, problems))
            {
                return CliApp.UsageError;
            }

            int seed = parse.GetValue(seedOption);
            var settings = new FactoredSettings(Enumerable.Range(1, maxWorkers).ToArray(), runs, warmup);
            string sizeName = size.ToString().ToLowerInvariant();
            stealing = stealing! with { DetectedCacheGroups = CpuTopology.Detect().CacheGroups.Count };
            var programSettings = new Dictionary<string, string>(StringComparer.Ordinal);
            var progress = TextWriter.Synchronized(error);
            try
            {
                DateTimeOffset started = DateTimeOffset.UtcNow;
                long startTicks = Stopwatch.GetTimestamp();
                // A dedicated thread: the measurement blocks on each run, and no thread-pool thread should be held.
                var measured = await Task.Factory.StartNew(() =>
                {
                    IFactoredMeasurementSource source = sourceFactory?.Invoke() ?? new SchedulerMeasurementSource(stealing: stealing);
                    try
                    {
                        var results = new List<FactoredProgramResult>();
                        foreach (ProgramEntry entry in entries)
                        {
                            progress.WriteLine($"{prefix}: {entry.Name}: preparing the input (size {sizeName}, seed {seed}) ...");
                            ISampleProgram sample = entry.Create(size, seed);
                            if (sample is SequenceTransform transform)
                            {
                                programSettings[entry.Name] = transform.Describe();
                            }

                            var program = new SampleFactoredProgram(sample, maxWorkers);
                            results.Add(FactoredMeasurement.Measure(program, source, settings, line => progress.WriteLine($"{prefix}: {line}"), ct));
                        }

                        return results;
                    }
                    finally
                    {
                        (source as IDisposable)?.Dispose();
                    }
                }, ct, TaskCreationOptions.LongRunning, TaskScheduler.Default);

                var result = new FactoredResult(started, Stopwatch.GetElapsedTime(startTicks).TotalSeconds, MachineInfo.Capture(), sizeName, seed, settings, measured,
                    stealing, programSettings.Count > 0 ? programSettings : null);
                IReadOnlyList<string> files = FactoredFiles.Write(result, outFolder, plots == "png");
                await output.WriteAsync(FactoredTextReport.Table(result));
                await error.WriteLineAsync($"{prefix}: wrote {string.Join(", ", files)}");
                return 0;
            }
            catch (OperationCanceledException)
            {
                await error.WriteLineAsync($"{prefix}: canceled; no results were written.");
                return HarnessCommandRunner.RunFailed;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                await error.WriteLineAsync($"{prefix}: could not write the results to '{outFolder}': {e.Message}");
                return HarnessCommandRunner.RunFailed;
            }
            catch (Exception e) when (e is InvalidOperationException or TimeoutException)
            {
                await error.WriteLineAsync($"{prefix}: {e.Message} No results were written.");
                return HarnessCommandRunner.RunFailed;
            }
        });
        return command;
    }

    private static ProgramEntry TransformEntry(WindowMode mode, int grain, int? windowSize) =>
        ProgramEntry.Available(SequenceTransform.NameOf(mode),
            $"Memory-bound transform on the sequence skeleton, window {mode.ToString().ToLowerInvariant()}: R passes of out[i] = f(in[i], in[i + D]) over n doubles in blocks of 64.",
            (size, seed) => new SequenceTransform(mode, size, SequenceTransformParameters.For(size), seed, grain, windowSize));

    // The catalogue with the transforms made for --grain and --window-size, which apply only to the transforms asked for.
    private static ProgramCatalog TransformCatalog(ProgramCatalog catalog, string[] names, int? grain, int? windowSize, List<string> problems)
    {
        WindowMode[] modes = names.Select(SequenceTransform.ModeOf).OfType<WindowMode>().ToArray();
        string transforms = string.Join(", ", SequenceTransform.Names);
        if (grain is int g && g < 1)
        {
            problems.Add($"--grain must be at least 1; got {g}.");
        }

        if (windowSize is int m && m < Math.Max(1, grain ?? SequenceTransform.DefaultGrain))
        {
            problems.Add($"--window-size must be at least the grain ({grain ?? SequenceTransform.DefaultGrain}); got {m}.");
        }

        if (grain is not null && modes.Length == 0)
        {
            problems.Add($"--grain applies only to {transforms}; none of them is in --programs.");
        }

        if (windowSize is not null && !modes.Any(mode => mode != WindowMode.None))
        {
            problems.Add("--window-size applies only to transform-static and transform-sliding; neither is in --programs.");
        }

        foreach (WindowMode mode in modes)
        {
            catalog = catalog.With(TransformEntry(mode, Math.Max(1, grain ?? SequenceTransform.DefaultGrain), windowSize));
        }

        return catalog;
    }
}
