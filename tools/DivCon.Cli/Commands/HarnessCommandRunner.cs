using System.CommandLine;
using System.Globalization;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Plots;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Harness.Schemes;
using DivCon.Samples;

namespace DivCon.Cli.Commands;

/// <summary>
/// What <c>cyclic</c> and <c>symmetric</c> do once their workload is known: validate the shared options (every problem
/// on its own stderr line, exit 2, nothing written), run the test on the harness thread with progress lines on stderr,
/// then write the result files (all or nothing) and print the table on stdout.
/// </summary>
internal static class HarnessCommandRunner
{
    /// <summary>Exit code when a program fails or the run is canceled (no result written).</summary>
    public const int RunFailed = 1;

    public static string[] SplitNames(IEnumerable<string>? values) =>
        (values ?? []).SelectMany(v => v.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)).ToArray();

    /// <summary>Resolves program names against the catalogue, adding a problem line for each bad one.</summary>
    public static List<ProgramEntry> ResolvePrograms(ProgramCatalog catalog, IReadOnlyList<string> names, List<string> problems)
    {
        var entries = new List<ProgramEntry>();
        string valid = string.Join(", ", catalog.All.Select(e => e.Name));
        foreach (string name in names)
        {
            ProgramEntry? entry = catalog.Find(name);
            if (entry is null)
            {
                problems.Add($"unknown program '{name}'; valid programs: {valid}.");
            }
            else if (!entry.IsAvailable)
            {
                problems.Add($"program '{entry.Name}' is not available in this build ({entry.UnavailableReason}); available: {string.Join(", ", catalog.Available.Select(e => e.Name))}.");
            }
            else
            {
                entries.Add(entry);
            }
        }

        return entries;
    }

    public static async Task<int> RunAsync(
        ParseResult parse,
        HarnessCommandOptions options,
        string kind,
        List<string> problems,
        Func<ProblemSize, int, IReadOnlyList<IWorkloadProgram>> makeWorkload,
        SchemeRegistry registry,
        CancellationToken cancellationToken,
        SchemeTimelineCollector? timelines = null)
    {
        TextWriter output = parse.InvocationConfiguration.Output;
        TextWriter error = TextWriter.Synchronized(parse.InvocationConfiguration.Error);
        string prefix = $"divcon {kind}";

        // Schemes.
        var schemes = new List<SchemeDescriptor>();
        string[] schemeNames = SplitNames(parse.GetValue(options.Schemes));
        string validSchemes = string.Join(", ", registry.All.Select(s => s.Name));
        if (schemeNames.Length == 0)
        {
            problems.Add($"--schemes needs at least one scheme or 'all'; valid schemes: {validSchemes}.");
        }

        foreach (string name in schemeNames)
        {
            if (string.Equals(name, "all", StringComparison.OrdinalIgnoreCase))
            {
                schemes.AddRange(registry.Available);
                continue;
            }

            SchemeDescriptor? scheme = registry.Find(name);
            if (scheme is null)
            {
                problems.Add($"unknown scheme '{name}'; valid schemes: {validSchemes} (or 'all').");
            }
            else if (!scheme.IsAvailable)
            {
                problems.Add($"scheme '{scheme.Name}' is not available in this build ({scheme.UnavailableReason}); available: {string.Join(", ", registry.Available.Select(s => s.Name))}.");
            }
            else
            {
                schemes.Add(scheme);
            }
        }

        schemes = schemes.DistinctBy(s => s.Name).ToList();

        string spName = parse.GetValue(options.SpScheme) ?? HarnessWiring.DefaultSpScheme(registry);
        SchemeDescriptor? spScheme = registry.Find(spName);
        if (spScheme is null || !spScheme.IsAvailable || spScheme.RequiresScalability)
        {
            problems.Add($"--sp-scheme '{spName}' cannot measure C^SP; use one of: {string.Join(", ", registry.Available.Where(s => !s.RequiresScalability).Select(s => s.Name))}.");
        }

        // Numbers.
        string durationText = parse.GetValue(options.Duration) ?? string.Empty;
        if (!DurationParser.TryParse(durationText, out TimeSpan duration))
        {
            problems.Add($"--duration '{durationText}' is not a duration; write e.g. 10s, 90s, 2m or 1m30s.");
        }
        else if (duration <= TimeSpan.Zero)
        {
            problems.Add($"--duration must be positive; got '{durationText}'.");
        }

        int spRuns = parse.GetValue(options.SpRuns);
        if (spRuns <= 0)
        {
            problems.Add($"--sp-runs must be at least 1; got {spRuns}.");
        }

        int warmup = parse.GetValue(options.Warmup);
        if (warmup < 0)
        {
            problems.Add($"--warmup must be 0 or more; got {warmup}.");
        }

        int repeat = parse.GetValue(options.Repeat);
        if (repeat <= 0)
        {
            problems.Add($"--repeat must be at least 1; got {repeat}.");
        }

        string sizeText = parse.GetValue(options.Size) ?? string.Empty;
        ProblemSize size = ProblemSize.Medium;
        if (!Enum.TryParse(sizeText, ignoreCase: true, out size) || !Enum.IsDefined(size) || int.TryParse(sizeText, out _))
        {
            problems.Add($"--size '{sizeText}' is not a size; use small, medium or thesis.");
        }

        int? cores = parse.GetValue(options.Cores);
        IReadOnlyList<int> affinity = CommandInput.CheckCores(cores, problems);

        bool png = PlotOption.Read(parse, options.Plots, problems);

        string outFolder = parse.GetValue(options.Out) ?? string.Empty;
        CommandInput.CheckOutFolder(outFolder, problems);
        if (await CommandInput.ReportAsync(error, prefix, problems))
        {
            return CliApp.UsageError;
        }

        IReadOnlyList<int> processors = affinity.Take(cores ?? affinity.Count).ToArray();
        if (cores is not null && schemes.Any(s => s.Name == BuiltInSchemes.TplDefaultName))
        {
            await error.WriteLineAsync($"{prefix}: note: tpl-default runs on the .NET thread pool, which --cores does not limit.");
        }

        int seed = parse.GetValue(options.Seed);
        var settings = new CyclicSettings(duration, spRuns, warmup, repeat, processors, seed,
            StopGrace: TimeSpan.FromSeconds(60), RunTimeout: TimeSpan.FromMinutes(10));
        try
        {
            await error.WriteLineAsync($"{prefix}: preparing the inputs (size {size.ToString().ToLowerInvariant()}, seed {seed}) ...");
            IReadOnlyList<IWorkloadProgram> programs;
            try
            {
                programs = makeWorkload(size, seed);
            }
            catch (Exception e) when (e is not OperationCanceledException)
            {
                // A program factory is the other side of a boundary: one line, no stack trace, nothing written.
                await error.WriteLineAsync($"{prefix}: could not prepare the programs' inputs: {e.GetType().Name}: {e.Message}");
                return RunFailed;
            }

            var plan = new CyclicPlan(kind, programs, schemes, spScheme!, size.ToString().ToLowerInvariant(), settings);
            var experiment = new CyclicExperiment(TimeProvider.System, line => error.WriteLine($"{prefix}: {line}"));
            CyclicResult result = await HarnessThread.RunAsync(() => experiment.RunAsync(plan, cancellationToken));
            IReadOnlyList<string> files = ResultFiles.Write(result, outFolder, kind);
            files = [.. files, .. ResultPlotFiles.Write(outFolder, Path.Combine(outFolder, $"{kind}.json"), png, timelines?.Snapshot() ?? [])];
            await output.WriteAsync(CyclicTextReport.Table(result));
            await output.WriteAsync(ScalabilityNote(result));
            await error.WriteLineAsync($"{prefix}: wrote {string.Join(", ", files)}");
            return 0;
        }
        catch (ProgramRunException e)
        {
            await error.WriteLineAsync($"{prefix}: {e.Message} No results were written.");
            return RunFailed;
        }
        catch (SchemeSetupException e)
        {
            await error.WriteLineAsync($"{prefix}: {e.Message} No results were written.");
            return RunFailed;
        }
        catch (OperationCanceledException)
        {
            await error.WriteLineAsync($"{prefix}: canceled; no results were written.");
            return RunFailed;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            await error.WriteLineAsync($"{prefix}: could not write the results to '{outFolder}': {e.Message}");
            return RunFailed;
        }
    }

    /// <summary>Where the partitioned schemes' scalabilities came from (empty when no selected scheme needed them).</summary>
    public static string ScalabilityNote(CyclicResult result)
    {
        var measured = result.Baselines.Where(b => b.Scalability is not null).ToArray();
        if (measured.Length == 0)
        {
            return string.Empty;
        }

        string values = string.Join(", ", measured.Select(b =>
            string.Create(CultureInfo.InvariantCulture, $"{b.Program} {b.Scalability:0.00} (T_seq {b.SequentialSeconds:0.000} s)")));
        return $"\nScalability used by the partitioned schemes, measured in this run as T_seq (one sequential run) / mean C^SP on {result.Configuration.SpScheme}: {values}.\n";
    }

}
