using System.CommandLine;
using System.Globalization;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Plots;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Harness.Schemes;
using DivCon.Metrics.Schemes;
using DivCon.Scheduling;

namespace DivCon.Cli.Commands;

/// <summary>
/// The options <c>cyclic</c> and <c>symmetric</c> share, and what both do once their workload is known: run the test
/// (<see cref="CyclicExperiment"/>), write <c>{kind}.json</c>, <c>.csv</c>, <c>report.md</c>, the figures and, for each
/// MultiProgramScheduler scheme, its allocation plot and Chrome trace; print the table.
/// </summary>
internal sealed class CyclicOptions
{
    private readonly Option<string[]> _schemes = new("--schemes")
    {
        Description = "Schemes to compare, comma- or space-separated, or 'all' (every scheme).",
        AllowMultipleArgumentsPerToken = true,
        DefaultValueFactory = _ => ["all"],
    };

    private readonly Option<string> _duration = new("--duration")
    {
        Description = "Time limit of each scheme's multiprogram phase, e.g. 10s, 90s, 2m, 1m30s. The whole run takes about "
            + "schemes × (duration + 0.5 s) + C^SP (programs × (warm-up + sp-runs) runs alone) + one sequential run per program.",
        DefaultValueFactory = _ => "10s",
    };

    private readonly Option<int> _spRuns = new("--sp-runs") { Description = "Single-program runs per program for C^SP (the thesis uses 5).", DefaultValueFactory = _ => 5 };
    private readonly Option<int> _warmup = CommandInput.Warmup("Unrecorded runs per program before the C^SP runs.");
    private readonly Option<int> _repeat = new("--repeat") { Description = "Repetitions of the whole test; scheme-level intervals and significance need at least 2.", DefaultValueFactory = _ => 1 };
    private readonly Option<string> _size = CommandInput.Size();
    private readonly Option<int?> _cores = CommandInput.Cores();
    private readonly Option<bool> _overBudget = CommandInput.OverBudget();
    private readonly Option<string> _spScheme = new("--sp-scheme")
    {
        Description = $"Scheme that measures C^SP (default: {SchemeCatalog.OversubscribedFree}, i.e. one work-stealing scheduler with a worker per core, the program alone).",
        DefaultValueFactory = _ => SchemeCatalog.OversubscribedFree,
    };

    private readonly Option<int> _seed = CommandInput.Seed("Seeds the programs' inputs and the order of the schemes.");
    private readonly Option<string> _plots = CommandInput.Plots();
    private readonly Option<string> _out;

    public CyclicOptions(Command command, string defaultOut)
    {
        _out = CommandInput.Out(defaultOut);
        foreach (Option option in new Option[] { _schemes, _duration, _spRuns, _warmup, _repeat, _size, _cores, _overBudget, _spScheme, _out, _seed, _plots })
        {
            command.Options.Add(option);
        }
    }

    /// <summary>Checks the shared options, then runs the test on the workload <paramref name="makeWorkload"/> makes.</summary>
    public Task<int> RunAsync(ParseResult parse, string kind, List<string> problems, Func<WorkloadSize, int, IReadOnlyList<IWorkloadProgram>> makeWorkload,
        SchemeRegistry registry, SchemeTimelineCollector? timelines, CancellationToken cancellationToken)
    {
        var schemes = new List<SchemeDescriptor>();
        string[] names = CommandInput.SplitNames(parse.GetValue(_schemes));
        if (names.Length == 0)
        {
            problems.Add($"--schemes needs at least one scheme or 'all'; valid schemes: {string.Join(", ", registry.All)}.");
        }

        foreach (string name in names)
        {
            if (string.Equals(name, "all", StringComparison.OrdinalIgnoreCase))
            {
                schemes.AddRange(registry.All);
            }
            else if (registry.Find(name) is { } scheme)
            {
                schemes.Add(scheme);
            }
            else
            {
                problems.Add($"unknown scheme '{name}'; valid schemes: {string.Join(", ", registry.All)} (or 'all').");
            }
        }

        string spName = parse.GetValue(_spScheme) ?? string.Empty;
        SchemeDescriptor? spScheme = registry.Find(spName);
        if (spScheme is null || spScheme.RequiresScalability)
        {
            problems.Add($"--sp-scheme '{spName}' cannot measure C^SP; use one of: {string.Join(", ", registry.All.Where(s => !s.RequiresScalability))}.");
        }

        string durationText = parse.GetValue(_duration) ?? string.Empty;
        if (!DurationParser.TryParse(durationText, out TimeSpan duration))
        {
            problems.Add($"--duration '{durationText}' is not a duration; write e.g. 10s, 90s, 2m or 1m30s.");
        }
        else if (duration <= TimeSpan.Zero)
        {
            problems.Add($"--duration must be positive; got '{durationText}'.");
        }

        int spRuns = CommandInput.AtLeast(parse, _spRuns, 1, problems);
        int warmup = CommandInput.AtLeast(parse, _warmup, 0, problems);
        int repeat = CommandInput.AtLeast(parse, _repeat, 1, problems);
        WorkloadSize size = CommandInput.ReadSize(parse, _size, problems);
        // One reading of the CPU budget for the whole test: the option checks, every scheduler and the result use it.
        CpuBudget budget = CpuBudget.Detect();
        var notes = new List<string>();
        IReadOnlyList<int> processors = CommandInput.ReadCores(parse, _cores, budget, parse.GetValue(_overBudget), problems, notes);
        bool png = CommandInput.ReadPlots(parse, _plots, problems);
        string outFolder = CommandInput.ReadOut(parse, _out, problems);
        int seed = parse.GetValue(_seed);
        if (problems.Count == 0 && parse.GetValue(_cores) is not null && schemes.Any(s => s.Name == SchemeCatalog.TplDefault))
        {
            parse.InvocationConfiguration.Error.WriteLine($"divcon {kind}: note: tpl-default runs on the .NET thread pool, which --cores does not limit.");
        }

        var settings = new CyclicSettings(duration, spRuns, warmup, repeat, processors, seed, StopGrace: TimeSpan.FromSeconds(60), RunTimeout: TimeSpan.FromMinutes(10),
            Budget: budget);
        return ExperimentRunner.RunAsync(parse, kind, problems, outFolder,
            async (progress, ct) =>
            {
                progress.Line($"preparing the inputs (size {CommandInput.Name(size)}, seed {seed}) ...");
                IReadOnlyList<IWorkloadProgram> programs = makeWorkload(size, seed);
                foreach (IWorkloadProgram program in programs)
                {
                    program.Initialize();
                }

                var plan = new CyclicPlan(kind, programs, schemes.DistinctBy(s => s.Name).ToArray(), spScheme!, CommandInput.Name(size), settings);
                return await new CyclicExperiment(TimeProvider.System, progress).RunAsync(plan, ct);
            },
            result => [.. ResultKinds.Cyclic.Files(result, png), .. AllocationFiles(timelines?.Snapshot() ?? [], png)],
            result => ResultKinds.Cyclic.Table(result) + ScalabilityNote(result),
            cancellationToken, notes);
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

    // One set of files per scheme; a scheme run more than once (repetitions) gets -2, -3, ... on the later ones.
    private static IEnumerable<(string Name, byte[] Content)> AllocationFiles(IReadOnlyList<SchemeTimeline> timelines, bool png)
    {
        var seen = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);
        foreach (SchemeTimeline t in timelines)
        {
            int n = seen[t.Scheme] = seen.GetValueOrDefault(t.Scheme) + 1;
            foreach (var file in AllocationPlot.Files(n == 1 ? t : t with { Scheme = $"{t.Scheme}-{n}" }, png))
            {
                yield return file;
            }
        }
    }
}
