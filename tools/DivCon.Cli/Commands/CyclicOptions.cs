using System.Collections.Concurrent;
using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Plots;
using DivCon.Harness.Programs;
using DivCon.Harness.Progress;
using DivCon.Harness.Reporting;
using DivCon.Harness.Schemes;
using DivCon.Metrics.Schemes;

namespace DivCon.Cli.Commands;

/// <summary>
/// The commands <c>cyclic</c> and <c>symmetric</c>: their shared options, and what both do once their workload is known.
/// With <c>--repeat 1</c> (the default) one invocation runs in this process. With <c>--repeat N</c> (or <c>auto</c>)
/// this process is a driver: it runs each invocation as a child process of itself (<see cref="ProcessInvocationLauncher"/>,
/// hidden options <c>--invocation k --invocations N</c>), one after another, and analyzes their raw times together
/// (<see cref="CyclicResults.Build"/>). Then it writes <c>{kind}.json</c>, <c>.csv</c>, <c>report.md</c>, the figures
/// and, for each MultiProgramScheduler scheme, the first invocation's allocation plot and Chrome trace; and prints the table.
/// </summary>
internal sealed class CyclicOptions
{
    private readonly Option<string[]> _schemes = CommandInput.List("--schemes", "Schemes to compare, comma- or space-separated, or 'all' (every scheme).", ["all"]);

    private readonly Option<string> _duration = CommandInput.Declare<string>("--duration",
        "Time limit of each scheme's multiprogram phase, e.g. 10s, 90s, 2m, 1m30s. One invocation takes about "
        + "schemes × (duration + 0.5 s) + C^SP (programs × (warm-up + sp-runs) runs alone) + the sequential runs.", "10s");

    private readonly Option<int> _spRuns = CommandInput.Declare<int>("--sp-runs",
        "C^SP per invocation: the last this-many runs of a program alone, once steady (also the window --steady-cv judges).", 5);

    private readonly Option<int> _warmup = CommandInput.Declare("--warmup",
        "Runs per program alone before the C^SP window may start (recorded as warm-up).", 1);

    private readonly Option<string> _steadyCv = CommandInput.Declare<string>("--steady-cv",
        "Steady state: the C^SP window's coefficient of variation must not exceed this (e.g. 3%).", "3%");

    private readonly Option<int> _maxWarmup = CommandInput.Declare<int>("--max-warmup",
        "The most extra runs per program spent waiting for a steady C^SP window; then the last window counts, marked not steady.", CyclicSettings.DefaultMaxWarmupRuns);

    private readonly Option<int> _seqRuns = CommandInput.Declare<int>("--seq-runs",
        "Timed runs of each sequential baseline per invocation (after one warm-up), for the scalabilities and T_s.", CyclicSettings.DefaultSequentialRuns);

    private readonly Option<string> _scalability = CommandInput.Declare<string>("--scalability",
        "Where the partitioned schemes get each program's scalability: measured (T_seq / C^SP in each invocation; default) or "
        + "online (added without one, estimated by the scheduler while it runs; the measured value is still measured and reported beside it).", "measured");

    private readonly Option<string> _repeat = CommandInput.Declare<string>("--repeat",
        "Independent invocations (child processes, one after another): a number, or 'auto' to size the run from a pilot "
        + "(see --detect). Scheme-level intervals and comparisons need at least 2; 10 or more resolve differences of a few percent here.", "1");

    private readonly Option<string> _detect = CommandInput.Declare<string>("--detect",
        "The relative difference between two schemes to plan for (e.g. 5%): with --repeat auto, run enough invocations to resolve it "
        + "with 80 % power at the corrected 1 % level; otherwise the report says how many it would take.", "5%");

    private readonly Option<int> _pilot = CommandInput.Declare<int>("--pilot", "Invocations of the pilot of --repeat auto (at least 2).", InvocationCount.DefaultPilot);

    private readonly Option<int> _maxRepeat = CommandInput.Declare<int>("--max-repeat", "The most invocations --repeat auto may run.", InvocationCount.DefaultMax);

    private readonly Option<string?> _baseline = CommandInput.Declare<string?>("--baseline",
        "Compare every scheme against this one only (fewer comparisons, so more power) instead of every pair.");

    private readonly Option<string> _size = CommandInput.Size();
    private readonly Option<int?> _cores = CommandInput.Cores();
    private readonly Option<bool> _overBudget = CommandInput.OverBudget();
    private readonly Option<string> _spScheme = CommandInput.Declare<string>("--sp-scheme",
        $"Scheme that measures C^SP (default: {SchemeCatalog.OversubscribedFree}, i.e. one work-stealing scheduler with a worker per core, the program alone).",
        SchemeCatalog.OversubscribedFree);

    private readonly Option<int> _seed = CommandInput.Declare("--seed",
        "Seeds the programs' inputs (the same in every invocation) and, with each invocation's number, the order of the schemes.", 1);
    private readonly Option<string> _plots = CommandInput.Plots();
    private readonly Option<string> _out;

    // A child of a driver: which invocation it runs, of how many. Not for users.
    private readonly Option<int?> _invocation = new("--invocation") { Hidden = true };
    private readonly Option<int?> _invocations = new("--invocations") { Hidden = true };

    private readonly SchemeRegistry _registry;
    private readonly ConcurrentQueue<SchemeTimeline>? _timelines;
    private readonly CliSelf? _self;

    private CyclicOptions(Command command, SchemeRegistry registry, ConcurrentQueue<SchemeTimeline>? timelines, CliSelf? self)
    {
        (_registry, _timelines, _self) = (registry, timelines, self);
        _out = CommandInput.Out(Path.Combine("results", command.Name));
        foreach (Option option in new Option[]
        {
            _schemes, _duration, _spRuns, _warmup, _steadyCv, _maxWarmup, _seqRuns, _scalability, _repeat, _detect, _pilot, _maxRepeat, _baseline,
            _size, _cores, _overBudget, _spScheme, _out, _seed, _plots, _invocation, _invocations,
        })
        {
            command.Options.Add(option);
        }
    }

    /// <summary>
    /// <c>divcon cyclic</c>: the main job (thesis §5.4.1, §7.5). The default is one invocation, in this process, sized to
    /// finish in about two minutes on a 2-core machine with every scheme (9) and the 3-program workload (strassen,
    /// quicksort, mergesort, size medium, ≈ 0.3–0.6 s per run alone): C^SP = 3 programs × (1 warm-up + 5 runs, up to 15
    /// more while a window is not steady) × ≈ 0.3 s ≈ 6–20 s; 1 + 3 sequential runs per program for the partitioned
    /// schemes' scalabilities ≈ 6 s; 10 s per scheme plus ≈ 0.5 s to stop the discarded runs and collect garbage
    /// ≈ 9 × 10.5 s ≈ 95 s; T_1 (3 runs per program) ≈ 5 s; total ≈ 2 min. <c>--repeat N</c> runs N such invocations as
    /// child processes (N × that, plus about a second each to start a process and make the inputs).
    /// </summary>
    public static Command Cyclic(ProgramCatalog catalog, SchemeRegistry registry, ConcurrentQueue<SchemeTimeline>? timelines = null, CliSelf? self = null)
    {
        var programs = CommandInput.List("--programs",
            $"Programs of the workload, comma- or space-separated (default: {string.Join(",", ProgramCatalog.DefaultCyclicWorkload)}). Known: {catalog.Names}.",
            ProgramCatalog.DefaultCyclicWorkload);
        var command = new Command("cyclic",
            "Cyclic multiprogram test (§5.4.1): C^SP of each program alone, then all programs together, each restarted as soon as it ends, "
            + "under each scheme; prints NTT, NP per program and ANTT, MNTT, STP per scheme with 99 % intervals and the paired, corrected comparisons "
            + "between schemes; writes cyclic.json (every raw run time), cyclic.csv, report.md. One invocation by default (about two minutes on 2 cores); "
            + "comparisons need independent invocations: --repeat 10, or --repeat auto --detect 5%.")
        {
            programs,
        };
        return new CyclicOptions(command, registry, timelines, self).SetAction(command, (parse, problems) =>
        {
            IReadOnlyList<ProgramEntry> entries = catalog.Resolve(CommandInput.SplitNames(parse.GetValue(programs)), problems,
                duplicateHint: " (use 'divcon symmetric' for several instances of one program)");
            return (size, seed) => entries.Select(e => e.Create(size, seed)).ToArray();
        });
    }

    /// <summary>
    /// <c>divcon symmetric</c> (thesis §7.4): n instances of one program, each with its own input (seed + k), run as a
    /// cyclic test under each scheme; the instances are named <c>program#k</c>. MNTT is the figure the thesis plots.
    /// </summary>
    public static Command Symmetric(ProgramCatalog catalog, SchemeRegistry registry, ConcurrentQueue<SchemeTimeline>? timelines = null, CliSelf? self = null)
    {
        var programOption = CommandInput.Declare<string>("--program", $"The program to run several instances of. Known: {catalog.Names}.", "quicksort");
        var instancesOption = CommandInput.Declare<int>("--instances", "How many instances run together (the thesis ran 8 on 64 cores).", 4);
        var command = new Command("symmetric",
            "Symmetric multiprogram test (§7.4): n instances of one program under each scheme; prints NTT per instance and ANTT, MNTT, STP per scheme, "
            + "writes symmetric.json, symmetric.csv, report.md.")
        {
            programOption,
            instancesOption,
        };
        return new CyclicOptions(command, registry, timelines, self).SetAction(command, (parse, problems) =>
        {
            int instances = CommandInput.AtLeast(parse, instancesOption, 1, problems);
            IReadOnlyList<ProgramEntry> entry = catalog.Resolve([parse.GetValue(programOption) ?? string.Empty], problems, programOption.Name);
            return (size, seed) => Enumerable.Range(1, instances)
                .Select(k => (IWorkloadProgram)new Instance(entry[0].Create(size, seed + k - 1), string.Create(CultureInfo.InvariantCulture, $"{entry[0].Name}#{k}")))
                .ToArray();
        });
    }

    /// <summary>
    /// Sets the action of <paramref name="command"/>: <paramref name="readWorkload"/> checks the command's own options and
    /// returns how to make the workload (by size and seed); then <see cref="RunAsync"/>.
    /// </summary>
    private Command SetAction(Command command, Func<ParseResult, List<string>, Func<WorkloadSize, int, IReadOnlyList<IWorkloadProgram>>> readWorkload)
    {
        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            return RunAsync(parse, command.Name, problems, readWorkload(parse, problems), ct);
        });
        return command;
    }

    /// <summary>Checks the shared options, then runs the test on the workload <paramref name="makeWorkload"/> makes.</summary>
    private Task<int> RunAsync(ParseResult parse, string kind, List<string> problems, Func<WorkloadSize, int, IReadOnlyList<IWorkloadProgram>> makeWorkload,
        CancellationToken cancellationToken)
    {
        problems.AddIf(CommandInput.SplitNames(parse.GetValue(_schemes)).Length == 0,
            $"--schemes needs at least one scheme or 'all'; valid schemes: {string.Join(", ", _registry.All)}.");
        List<SchemeDescriptor> schemes = CommandInput.ReadEach(parse, _schemes, name =>
            string.Equals(name, "all", StringComparison.OrdinalIgnoreCase) ? _registry.All
            : _registry.Find(name) is { } scheme ? [scheme]
            : CommandInput.Problem<SchemeDescriptor>(problems, $"unknown scheme '{name}'; valid schemes: {string.Join(", ", _registry.All)} (or 'all')."));
        string spName = parse.GetValue(_spScheme) ?? string.Empty;
        SchemeDescriptor? spScheme = _registry.Find(spName);
        problems.AddIf(spScheme is null || spScheme.RequiresScalability, $"--sp-scheme '{spName}' cannot measure C^SP; use one of: {string.Join(", ", _registry.All.Where(s => !s.RequiresScalability))}.");

        string durationText = parse.GetValue(_duration) ?? string.Empty;
        bool parsed = DurationParser.TryParseNanoseconds(durationText, out double durationNs);
        TimeSpan duration = TimeSpan.FromTicks((long)Math.Round(durationNs / 100));
        problems.AddIf(!parsed, $"--duration '{durationText}' is not a duration; write e.g. 10s, 90s, 2m or 1m30s.");
        problems.AddIf(parsed && duration <= TimeSpan.Zero, $"--duration must be positive; got '{durationText}'.");

        int spRuns = CommandInput.AtLeast(parse, _spRuns, 2, problems, " (the steadiness of a window needs 2 runs)");
        int warmup = CommandInput.AtLeast(parse, _warmup, 0, problems);
        int maxWarmup = CommandInput.AtLeast(parse, _maxWarmup, 0, problems);
        int seqRuns = CommandInput.AtLeast(parse, _seqRuns, 1, problems);
        string scalability = parse.GetValue(_scalability) ?? "measured";
        problems.AddIf(scalability is not ("measured" or "online"), $"--scalability takes measured or online; got '{scalability}'.");

        double steadyCv = CommandInput.ReadPercent(parse.GetValue(_steadyCv), _steadyCv.Name, problems) ?? 0.05;
        double detect = CommandInput.ReadPercent(parse.GetValue(_detect), _detect.Name, problems) ?? 0.05;
        InvocationCount count = ReadCount(parse, detect, problems);
        string? baseline = parse.GetValue(_baseline);
        var options = new AnalysisOptions { Baseline = schemes.FirstOrDefault(s => string.Equals(s.Name, baseline, StringComparison.OrdinalIgnoreCase))?.Name, Detect = detect };
        problems.AddIf(baseline is not null && options.Baseline is null, $"--baseline '{baseline}' is not one of the schemes run ({string.Join(", ", schemes.Select(s => s.Name))}).");

        WorkloadSize size = CommandInput.ReadSize(parse, _size, problems);
        var (budget, processors, notes) = CommandInput.ReadCores(parse, _cores, _overBudget, problems);
        bool png = CommandInput.ReadPlots(parse, _plots, problems);
        (int Invocation, int Of)? child = ReadChild(parse, problems);
        problems.AddIf(problems.Count == 0 && child is null && (count.IsAuto || count.Fixed > 1) && _self is null, "--repeat above 1 starts this command again as a child process, and this process cannot tell how it was started; run it as 'divcon' or 'dotnet DivCon.Cli.dll'.");

        string outFolder = CommandInput.ReadOut(parse, _out, problems);
        int seed = parse.GetValue(_seed);
        if (problems.Count == 0 && child is null && parse.GetValue(_cores) is not null && schemes.Any(s => s.Name == SchemeCatalog.TplDefault))
        {
            parse.InvocationConfiguration.Error.WriteLine($"divcon {kind}: note: tpl-default runs on the .NET thread pool, which --cores does not limit.");
        }

        var settings = new CyclicSettings(duration, spRuns, warmup, processors, seed, StopGrace: TimeSpan.FromSeconds(60), RunTimeout: TimeSpan.FromMinutes(10),
            MaxWarmupRuns: maxWarmup, SteadyCv: steadyCv, SequentialRuns: seqRuns, Budget: budget, OnlineScalability: scalability == "online");
        CyclicPlan Plan()
        {
            IReadOnlyList<IWorkloadProgram> programs = makeWorkload(size, seed);
            foreach (IWorkloadProgram program in programs)
            {
                program.Initialize();
            }

            return new CyclicPlan(kind, programs, schemes, spScheme!, CommandInput.Name(size), settings);
        }

        if (child is { } c)
        {
            // One invocation of a driver's: its raw times and the allocation files, no analysis.
            return ExperimentRunner.RunAsync(parse, kind, problems, outFolder,
                async (progress, ct) =>
                {
                    progress.Line($"invocation {c.Invocation}/{c.Of}: preparing the inputs (size {CommandInput.Name(size)}, seed {seed}) ...");
                    CyclicPlan plan = Plan();
                    CyclicInvocation invocation = await new CyclicExperiment(TimeProvider.System, progress).RunInvocationAsync(plan, c.Invocation, c.Of, ct);
                    return new CyclicInvocationFile(CyclicPlanRecord.From(plan, c.Of), invocation)
                    {
                        StartedUtc = invocation.StartedUtc,
                        ElapsedSeconds = invocation.ElapsedSeconds,
                        Machine = MachineInfo.Capture(budget),
                    };
                },
                file => [(CyclicInvocationFile.FileKind + ".json", ResultJson.ToUtf8(file, ResultKinds.Invocation.Json)), .. AllocationFiles(_timelines?.ToArray() ?? [], png)],
                ResultKinds.Invocation.Table,
                cancellationToken, notes);
        }

        string workDir = Path.Combine(Path.GetTempPath(), "divcon-invocations", $"{Environment.ProcessId}-{Guid.NewGuid():N}");
        return ExperimentRunner.RunAsync(parse, kind, problems, outFolder,
            async (progress, ct) =>
            {
                progress.Line($"preparing the inputs (size {CommandInput.Name(size)}, seed {seed}) ...");
                CyclicPlan plan = Plan();
                if (!count.IsAuto && count.Fixed == 1)
                {
                    CyclicResult one = await new CyclicExperiment(TimeProvider.System, progress).RunAsync(plan, ct, options);
                    return (Result: one, Allocation: AllocationFiles(_timelines?.ToArray() ?? [], png).ToArray());
                }

                try
                {
                    return await RunInvocationsAsync(parse, plan, count, options, png, workDir, progress, ct);
                }
                finally
                {
                    if (Directory.Exists(workDir))
                    {
                        Directory.Delete(workDir, recursive: true);
                    }
                }
            },
            r => [.. ResultKinds.Cyclic.Files(r.Result, png), .. r.Allocation],
            r => ResultKinds.Cyclic.Table(r.Result) + ScalabilityNote(r.Result),
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
        string where = result.Invocations.Count == 1 ? "in this run" : $"in each invocation (means over {result.Invocations.Count})";
        return $"\nScalability used by the partitioned schemes, measured {where} as T_seq (mean of {result.Configuration.SequentialRuns} sequential runs) / mean C^SP on {result.Configuration.SpScheme}: {values}.\n";
    }

    private async Task<(CyclicResult Result, (string Name, byte[] Content)[] Allocation)> RunInvocationsAsync(
        ParseResult parse, CyclicPlan plan, InvocationCount count, AnalysisOptions options, bool png, string workDir, IRunProgress progress,
        CancellationToken cancellationToken)
    {
        DateTimeOffset started = DateTimeOffset.UtcNow;
        var clock = System.Diagnostics.Stopwatch.StartNew();
        CyclicPlanRecord record = CyclicPlanRecord.From(plan, count.IsAuto ? count.Pilot : count.Fixed, count.Detect);
        string Folder(int k) => Path.Combine(workDir, k.ToString(CultureInfo.InvariantCulture));
        double estimate = (plan.Schemes.Count * (plan.Settings.Duration.TotalSeconds + 1)) + 20;
        var launcher = new ProcessInvocationLauncher(_self!, (k, of, dir) => ChildArguments(parse, k, of, dir, png && k == 1), Folder, record, estimate);
        MachineInfo machine = MachineInfo.Capture(plan.Settings.Budget);
        var (invocations, sizing) = await new InvocationDriver(launcher, progress).RunAsync(
            count,
            pilot => CyclicResults.Build(record, pilot, CyclicExperiment.Describe(plan), options with { MaxInvocations = Math.Max(options.MaxInvocations, count.Max) },
                machine, started, clock.Elapsed.TotalSeconds).Inference,
            cancellationToken);
        CyclicResult result = CyclicResults.Build(record, invocations, CyclicExperiment.Describe(plan), options, machine, started, clock.Elapsed.TotalSeconds, sizing);
        // The first invocation's allocation plots and traces (the child wrote them beside its invocation.json).
        var allocation = png && Directory.Exists(Folder(1))
            ? Directory.GetFiles(Folder(1), "allocation-*").Order(StringComparer.Ordinal).Select(f => (Path.GetFileName(f), File.ReadAllBytes(f))).ToArray()
            : [];
        return (result, allocation);
    }

    /// <summary>
    /// The options that make a child run invocation <paramref name="k"/> of <paramref name="of"/> into <paramref name="dir"/>:
    /// the command and every option given to this driver as typed (the child reads them as this process did), but for
    /// <c>--repeat</c>, <c>--out</c> and <c>--plots</c>.
    /// </summary>
    private IReadOnlyList<string> ChildArguments(ParseResult parse, int k, int of, string dir, bool png) =>
    [
        parse.CommandResult.Command.Name,
        .. parse.CommandResult.Children.OfType<OptionResult>()
            .Where(o => !o.Implicit && o.Option != _repeat && o.Option != _out && o.Option != _plots)
            .SelectMany(o => o.Tokens.Select(t => t.Value).Prepend(o.Option.Name)),
        "--plots", png ? "png" : "none",
        "--out", dir,
        "--invocation", k.ToString(CultureInfo.InvariantCulture),
        "--invocations", of.ToString(CultureInfo.InvariantCulture),
    ];

    private InvocationCount ReadCount(ParseResult parse, double detect, List<string> problems)
    {
        string text = (parse.GetValue(_repeat) ?? string.Empty).Trim();
        int pilot = parse.GetValue(_pilot), max = parse.GetValue(_maxRepeat);
        if (string.Equals(text, "auto", StringComparison.OrdinalIgnoreCase))
        {
            var count = new InvocationCount(0, detect, pilot, max);
            problems.AddRange(count.Validate().Select(p => $"--repeat auto: {p}"));
            return count;
        }

        if (!int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out int n) || n < 1)
        {
            problems.Add($"--repeat must be at least 1 or 'auto'; got '{text}'.");
            return new InvocationCount(1);
        }

        return new InvocationCount(n);
    }

    private (int Invocation, int Of)? ReadChild(ParseResult parse, List<string> problems)
    {
        int? k = parse.GetValue(_invocation), of = parse.GetValue(_invocations);
        if (k is null && of is null)
        {
            return null;
        }

        if (k is not int invocation || of is not int total || invocation < 1 || total < invocation)
        {
            problems.Add("--invocation k --invocations N (set by a driver for its child processes) need 1 ≤ k ≤ N.");
            return null;
        }

        return (invocation, total);
    }

    // One set of files per scheme (the first timeline of each).
    private static IEnumerable<(string Name, byte[] Content)> AllocationFiles(IReadOnlyList<SchemeTimeline> timelines, bool png) =>
        timelines.DistinctBy(t => t.Scheme, StringComparer.OrdinalIgnoreCase).SelectMany(t => AllocationPlot.Files(t, png));

    // One instance of the program under its own name.
    private sealed class Instance(IWorkloadProgram program, string name) : IWorkloadProgram
    {
        public string Name => name;

        public void Initialize() => program.Initialize();

        public Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken) => program.RunAsync(scheduler, cancellationToken);

        public void RunSequential() => program.RunSequential();

        public void Verify() => program.Verify();
    }
}
