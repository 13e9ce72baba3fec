using System.CommandLine;
using System.Diagnostics;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Factored;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Samples;
using DivCon.Samples.WorkInflation;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon factored</c>: factored speedups of each program in isolation for P = 1 … N workers (seed 001 §2;
/// DESIGN.md §8). Per program: T_s, T_elision and one parallel run per P in each of R rounds (interleaved), on
/// work-stealing schedulers with idle counters; writes factored.json, factored.csv and, with <c>--plots png</c>,
/// one PNG per program with its figure's JSON beside it; prints the table. Cost: (runs + warm-up) rounds of
/// T_s + T_elision + T_1 + … + T_N per program; the defaults (5 programs, medium, 5 runs + 1 warm-up, N = 2) took
/// 6.5 minutes on a 2-core machine loaded by other jobs (rounds of 6–25 s), less on a quiet one; small takes seconds.
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
        var command = new Command("factored",
            "Factored speedups (Acar, Charguéraud, Rainey): T_s, T_1, T_P, idle time I_P and T_elision per program for P = 1 … N; "
            + "derives work W_P and inflation F_P and the linear, maximal, idle-time-specific, inflation-specific, actual and elision speedups; "
            + "writes factored.json, factored.csv and a PNG per program.")
        {
            programsOption, sizeOption, runsOption, warmupOption, maxWorkersOption, seedOption, outOption, plotsOption,
        };

        command.SetAction(async (parse, ct) =>
        {
            TextWriter output = parse.InvocationConfiguration.Output;
            TextWriter error = parse.InvocationConfiguration.Error;
            const string prefix = "divcon factored";
            var problems = new List<string>();

            string[] names = HarnessCommandRunner.SplitNames(parse.GetValue(programsOption));
            if (names.Length == 0)
            {
                problems.Add($"--programs needs at least one program; valid programs: {known}.");
            }

            foreach (var dup in names.GroupBy(n => n, StringComparer.OrdinalIgnoreCase).Where(g => g.Count() > 1))
            {
                problems.Add($"program '{dup.Key}' is listed more than once.");
            }

            List<ProgramEntry> entries = HarnessCommandRunner.ResolvePrograms(catalog, names.Distinct(StringComparer.OrdinalIgnoreCase).ToArray(), problems);

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
            var progress = TextWriter.Synchronized(error);
            try
            {
                DateTimeOffset started = DateTimeOffset.UtcNow;
                long startTicks = Stopwatch.GetTimestamp();
                // A dedicated thread: the measurement blocks on each run, and no thread-pool thread should be held.
                var programs = await Task.Factory.StartNew(() =>
                {
                    IFactoredMeasurementSource source = sourceFactory?.Invoke() ?? new SchedulerMeasurementSource();
                    try
                    {
                        var results = new List<FactoredProgramResult>();
                        foreach (ProgramEntry entry in entries)
                        {
                            progress.WriteLine($"{prefix}: {entry.Name}: preparing the input (size {sizeName}, seed {seed}) ...");
                            var program = new SampleFactoredProgram(entry.Create(size, seed), maxWorkers);
                            results.Add(FactoredMeasurement.Measure(program, source, settings, line => progress.WriteLine($"{prefix}: {line}"), ct));
                        }

                        return results;
                    }
                    finally
                    {
                        (source as IDisposable)?.Dispose();
                    }
                }, ct, TaskCreationOptions.LongRunning, TaskScheduler.Default);

                var result = new FactoredResult(started, Stopwatch.GetElapsedTime(startTicks).TotalSeconds, MachineInfo.Capture(), sizeName, seed, settings, programs);
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
}
