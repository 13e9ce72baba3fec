using System.CommandLine;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using DivCon.Samples;
using DivCon.Simulation;
using DivCon.Skeletons;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon simulate</c>: the cyclic test on N virtual cores (the deterministic simulator, DESIGN.md §10), and
/// <c>divcon simulate calibrate</c>: program models from phase profiles measured on this machine.
/// </summary>
internal static class SimulateCommand
{
    /// <summary>The thesis's 5-program suite (§7.5.1).</summary>
    internal static readonly string[] Suite = ["sumofsquares", "montecarlopi", "strassen", "quicksort", "mergesort"];

    /// <summary>The thesis's low- to moderate-scalability subset (§7.5.2).</summary>
    internal static readonly string[] Subset = ["strassen", "quicksort", "mergesort"];

    /// <summary>Builds the command.</summary>
    public static Command Create()
    {
        var cores = new Option<string[]>("--cores")
        {
            Description = "Virtual cores; several values (2 16 64 256 or 2,16,64) simulate each. Default 64.",
            AllowMultipleArgumentsPerToken = true,
        };
        var programs = new Option<string[]>("--programs")
        {
            Description = $"One workload of these programs (model names). Default: two workloads, 'suite' ({string.Join(", ", Suite)}) and 'subset' ({string.Join(", ", Subset)}).",
            AllowMultipleArgumentsPerToken = true,
        };
        var schemes = new Option<string[]>("--schemes")
        {
            Description = $"Schemes, or 'all' (default): {string.Join(", ", SimulationSchemes.Names)}.",
            AllowMultipleArgumentsPerToken = true,
        };
        var models = new Option<string?>("--models") { Description = "Folder of <program>.json models (default: the models shipped with DivCon)." };
        var size = new Option<string>("--size")
        {
            Description = "Problem size the models are scaled to: small, medium, thesis, or 'model' (as calibrated). Default thesis.",
            DefaultValueFactory = _ => "thesis",
        };
        var seed = new Option<ulong>("--seed") { Description = "Seed of every random choice. Default 1.", DefaultValueFactory = _ => 1UL };
        var duration = new Option<string>("--duration")
        {
            Description = "Simulated length of each multiprogram phase (e.g. 30s, 2m, 500ms). Default 30s.",
            DefaultValueFactory = _ => "30s",
        };
        var spRuns = new Option<int>("--sp-runs") { Description = "Isolated runs per program for C^SP. Default 5.", DefaultValueFactory = _ => 5 };
        var repeat = new Option<int>("--repeat")
        {
            Description = "Repetitions of the whole simulated cyclic test, each with its own seed; scheme-level intervals and Welch's test need 2 or more. Default 1.",
            DefaultValueFactory = _ => 1,
        };
        var output = new Option<string>("--out")
        {
            Description = "Output folder for simulate.json, simulate.csv and report.md. Default simulate-out.",
            DefaultValueFactory = _ => "simulate-out",
        };
        var quantum = new Option<string?>("--quantum") { Description = "OS time slice (default 4ms)." };
        var contextSwitch = new Option<string?>("--context-switch") { Description = "Cost of switching a core between threads (default 5us)." };
        var migration = new Option<string?>("--migration") { Description = "Cold-start cost of a worker moved to another program or core (default 20us)." };
        var steal = new Option<string?>("--steal") { Description = "Cost of a successful steal (default 1us)." };
        var interval = new Option<string?>("--interval") { Description = "Repartitioning interval (default 100ms)." };

        var command = new Command(
            "simulate",
            "Simulate the cyclic multiprogram test on N virtual cores under each scheme, with the real partitioning policies; deterministic: the same options give byte-identical files.")
        {
            cores, programs, schemes, models, size, seed, duration, spRuns, repeat, output, quantum, contextSwitch, migration, steal, interval,
        };
        command.Subcommands.Add(CreateCalibrate());
        command.SetAction(async (ParseResult parse, CancellationToken cancellationToken) =>
        {
            TextWriter stdout = parse.InvocationConfiguration.Output;
            TextWriter stderr = parse.InvocationConfiguration.Error;
            var problems = new List<string>();

            int[] coreCounts = ParseInts(parse.GetValue(cores), "--cores", problems, defaultValue: 64);
            string[]? programNames = SplitList(parse.GetValue(programs));
            string[] schemeNames = SplitList(parse.GetValue(schemes)) is { Length: > 0 } s && !(s.Length == 1 && s[0] == "all")
                ? s
                : [.. SimulationSchemes.Names];
            foreach (string name in schemeNames.Where(n => !SimulationSchemes.IsKnown(n)))
            {
                problems.Add($"Unknown scheme '{name}'; use 'all' or some of: {string.Join(", ", SimulationSchemes.Names)}.");
            }

            long? durationNs = ParseDuration(parse.GetValue(duration), "--duration", problems);
            int sp = parse.GetValue(spRuns);
            if (sp < 1)
            {
                problems.Add($"--sp-runs must be at least 1; got {sp}.");
            }

            int repetitions = parse.GetValue(repeat);
            if (repetitions < 1)
            {
                problems.Add($"--repeat must be at least 1; got {repetitions}.");
            }

            SimulationParameters parameters = new();
            parameters = parameters with
            {
                QuantumNs = ParseDuration(parse.GetValue(quantum), "--quantum", problems) ?? parameters.QuantumNs,
                ContextSwitchNs = ParseDuration(parse.GetValue(contextSwitch), "--context-switch", problems, allowZero: true) ?? parameters.ContextSwitchNs,
                MigrationNs = ParseDuration(parse.GetValue(migration), "--migration", problems, allowZero: true) ?? parameters.MigrationNs,
                StealNs = ParseDuration(parse.GetValue(steal), "--steal", problems, allowZero: true) ?? parameters.StealNs,
                RepartitionIntervalNs = ParseDuration(parse.GetValue(interval), "--interval", problems) ?? parameters.RepartitionIntervalNs,
            };

            string sizeText = parse.GetValue(size) ?? "thesis";
            ProblemSize? problemSize = sizeText switch
            {
                "small" => ProblemSize.Small,
                "medium" => ProblemSize.Medium,
                "thesis" => ProblemSize.Thesis,
                "model" => null,
                _ => Invalid<ProblemSize?>(problems, $"--size must be small, medium, thesis or model; got '{sizeText}'."),
            };

            var workloads = programNames is { Length: > 0 }
                ? new List<(string Name, string[] Programs)> { (programNames.Length == 1 ? programNames[0] : "custom", programNames) }
                : [("suite", Suite), ("subset", Subset)];
            string? modelFolder = parse.GetValue(models);
            var loaded = new Dictionary<string, ProgramModel>(StringComparer.Ordinal);
            foreach (string name in workloads.SelectMany(w => w.Programs).Distinct(StringComparer.Ordinal))
            {
                if (LoadModel(name, modelFolder, problemSize, problems) is { } model)
                {
                    loaded[name] = model;
                }
            }

            foreach ((string name, string[] list) in workloads)
            {
                foreach (var dup in list.GroupBy(p => p, StringComparer.Ordinal).Where(g => g.Count() > 1))
                {
                    problems.Add($"Program '{dup.Key}' is listed more than once.");
                }
            }

            string outDir = parse.GetValue(output) ?? "simulate-out";
            if (problems.Count == 0)
            {
                CheckWritable(outDir, problems);
            }

            if (problems.Count > 0)
            {
                foreach (string problem in problems)
                {
                    await stderr.WriteLineAsync($"divcon simulate: {problem}");
                }

                return CliApp.UsageError;
            }

            var results = new List<NamedResult>();
            foreach (int n in coreCounts)
            {
                foreach ((string name, string[] list) in workloads)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    var request = new SimulationRequest
                    {
                        Cores = n,
                        Programs = list.Select(p => loaded[p]).ToArray(),
                        Schemes = schemeNames,
                        Seed = parse.GetValue(seed),
                        DurationNs = durationNs!.Value,
                        SpRuns = sp,
                        Repeat = repetitions,
                        Parameters = parameters,
                    };
                    await stdout.WriteLineAsync($"simulating {name} on {n} cores ({list.Length} programs, {schemeNames.Length} schemes)...");
                    SimulationResult result = await Task.Run(() => CyclicSimulator.Run(request), cancellationToken);
                    results.Add(new NamedResult(name, result));
                    await stdout.WriteAsync(Table(name, result));
                }
            }

            var settings = new Dictionary<string, string>
            {
                ["cores"] = string.Join(" ", coreCounts),
                ["schemes"] = string.Join(" ", schemeNames),
                ["models"] = modelFolder is null ? "default" : Path.GetFileName(Path.GetFullPath(modelFolder)),
                ["size"] = sizeText,
                ["seed"] = parse.GetValue(seed).ToString(CultureInfo.InvariantCulture),
                ["duration"] = parse.GetValue(duration) ?? "30s",
                ["repeat"] = repetitions.ToString(CultureInfo.InvariantCulture),
            };
            Directory.CreateDirectory(outDir);
            await File.WriteAllTextAsync(Path.Combine(outDir, "simulate.json"), SimulationReport.ToJson(results, settings), cancellationToken);
            await File.WriteAllTextAsync(Path.Combine(outDir, "simulate.csv"), SimulationReport.ToCsv(results), cancellationToken);
            await File.WriteAllTextAsync(Path.Combine(outDir, "report.md"), "# Simulated cyclic test\n\n" + SimulationReport.ToMarkdown(results), cancellationToken);
            await stdout.WriteLineAsync($"wrote {Path.Combine(outDir, "simulate.json")}, simulate.csv, report.md");
            return 0;
        });
        return command;
    }

    private static Command CreateCalibrate()
    {
        var programs = new Option<string[]>("--programs")
        {
            Description = $"Programs to profile (default all: {string.Join(", ", SampleCatalog.Names)}).",
            AllowMultipleArgumentsPerToken = true,
        };
        var size = new Option<string>("--size") { Description = "small or medium (default small).", DefaultValueFactory = _ => "small" };
        var runs = new Option<int>("--runs") { Description = "Profiled runs per program, after one warm-up; the minimum time per level and phase is kept (default 5).", DefaultValueFactory = _ => 5 };
        var granularityCores = new Option<int>("--granularity-cores")
        {
            Description = "Core count the automatic granularity is set for while profiling, so the profile has several levels (default 16).",
            DefaultValueFactory = _ => 16,
        };
        var output = new Option<string>("--out") { Description = "Folder for the <program>.json models (default models).", DefaultValueFactory = _ => "models" };
        var command = new Command(
            "calibrate",
            "Profile each sample program's split / execute / merge time per level on this machine (one worker at a time, so muscle times are not inflated by co-running muscles) and write a simulator model per program.")
        {
            programs, size, runs, granularityCores, output,
        };
        command.SetAction(async (ParseResult parse, CancellationToken cancellationToken) =>
        {
            TextWriter stdout = parse.InvocationConfiguration.Output;
            TextWriter stderr = parse.InvocationConfiguration.Error;
            var problems = new List<string>();
            string[] names = SplitList(parse.GetValue(programs)) is { Length: > 0 } p ? p : [.. SampleCatalog.Names];
            foreach (string name in names.Where(n => !SampleCatalog.Names.Contains(n)))
            {
                problems.Add($"Unknown program '{name}'; use some of: {string.Join(", ", SampleCatalog.Names)}.");
            }

            string sizeText = parse.GetValue(size) ?? "small";
            ProblemSize problemSize = sizeText switch
            {
                "small" => ProblemSize.Small,
                "medium" => ProblemSize.Medium,
                _ => Invalid<ProblemSize>(problems, $"--size must be small or medium; got '{sizeText}'."),
            };
            int runCount = parse.GetValue(runs);
            if (runCount < 1)
            {
                problems.Add($"--runs must be at least 1; got {runCount}.");
            }

            int gCores = parse.GetValue(granularityCores);
            if (gCores < 1)
            {
                problems.Add($"--granularity-cores must be at least 1; got {gCores}.");
            }

            string outDir = parse.GetValue(output) ?? "models";
            if (problems.Count == 0)
            {
                CheckWritable(outDir, problems);
            }

            if (problems.Count > 0)
            {
                foreach (string problem in problems)
                {
                    await stderr.WriteLineAsync($"divcon simulate calibrate: {problem}");
                }

                return CliApp.UsageError;
            }

            foreach (string name in names)
            {
                cancellationToken.ThrowIfCancellationRequested();
                ProgramModel model = await Task.Run(() => Profile(name, problemSize, runCount, gCores, cancellationToken), cancellationToken);
                string path = ModelStore.Save(outDir, model);
                await stdout.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
                    $"{name}: {model.Levels.Count} levels, work {model.TotalWorkNs / 1e6:0.0} ms per run, level growth {model.LevelGrowth} -> {path}"));
            }

            return 0;
        });
        return command;
    }

    /// <summary>Profiles <paramref name="runs"/> runs of one program on a one-at-a-time scheduler and calibrates its model.</summary>
    internal static ProgramModel Profile(string name, ProblemSize size, int runs, int granularityCores, CancellationToken cancellationToken)
    {
        var profiler = new PhaseProfiler();
        IDivConSample sample = SampleCatalog.Create(name, size, settings: new SampleSettings { Cores = granularityCores, Profiler = profiler });
        sample.Initialize();

        // One task at a time: the muscle times are those of a lone core, not inflated by a co-running muscle.
        var pair = new ConcurrentExclusiveSchedulerPair(TaskScheduler.Default, maxConcurrencyLevel: 1);
        sample.RunParallelAsync(pair.ConcurrentScheduler, cancellationToken).GetAwaiter().GetResult(); // warm-up (JIT, caches)
        sample.Verify();
        // Each run profiled on its own. The machine may be shared and overloaded: wall-clock muscle times then include
        // the time other processes held the core. One task runs at a time, so the process's CPU time over the run is
        // the run's own work; each run's profile is scaled by its CPU / wall ratio (interference is taken as uniform
        // over the run), and per level and phase the minimum over the runs is kept, as is the smallest CPU time of a
        // whole run. (CPU time also counts the runtime's own threads, GC included: a few percent at most.)
        var snapshots = new List<IReadOnlyList<PhaseLevelStatistics>>();
        double bestRunNs = double.MaxValue;
        var process = Process.GetCurrentProcess();
        for (int k = 0; k < runs; k++)
        {
            profiler.Reset();
            process.Refresh();
            TimeSpan cpuStart = process.TotalProcessorTime;
            long start = Stopwatch.GetTimestamp();
            sample.RunParallelAsync(pair.ConcurrentScheduler, cancellationToken).GetAwaiter().GetResult();
            TimeSpan wall = Stopwatch.GetElapsedTime(start);
            process.Refresh();
            TimeSpan cpu = process.TotalProcessorTime - cpuStart;
            double factor = Math.Clamp(cpu / wall, 0.01, 1.0);
            bestRunNs = Math.Min(bestRunNs, (cpu < wall ? cpu : wall).Ticks * 100.0);
            snapshots.Add(Scale(profiler.Snapshot(), factor));
        }

        sample.Verify();
        pair.Complete();
        double wholeRunNs = bestRunNs;
        IReadOnlyList<PhaseLevelStatistics> profile = MinimumPerLevel(snapshots);
        ModelCalibrator.Growth growth = ModelCalibrator.KnownGrowth(name)
            ?? throw new InvalidOperationException($"No growth law for '{name}'.");
        string source = string.Create(CultureInfo.InvariantCulture,
            $"calibrated by 'divcon simulate calibrate' from phase profiles of {runs} runs (each scaled by its CPU/wall time ratio, then the minimum per level and phase) at size {size.ToString().ToLowerInvariant()} (granularity for {granularityCores} cores, one task at a time) on a {Environment.ProcessorCount}-core {System.Runtime.InteropServices.RuntimeInformation.OSDescription.Trim()} machine");
        return ModelCalibrator.Calibrate(name, sample.BranchingFactor, sample.ProblemSize, profile, 1, wholeRunNs, growth, source);
    }

    /// <summary>The snapshot with every time multiplied by <paramref name="factor"/>.</summary>
    internal static IReadOnlyList<PhaseLevelStatistics> Scale(IReadOnlyList<PhaseLevelStatistics> snapshot, double factor) =>
        snapshot.Select(l => l with { SplitTime = l.SplitTime * factor, ExecuteTime = l.ExecuteTime * factor, MergeTime = l.MergeTime * factor }).ToArray();

    /// <summary>Per level: the counts of the first snapshot and, per phase, the smallest cumulative time of any snapshot.</summary>
    internal static IReadOnlyList<PhaseLevelStatistics> MinimumPerLevel(IReadOnlyList<IReadOnlyList<PhaseLevelStatistics>> snapshots)
    {
        int levels = snapshots.Min(s => s.Count);
        var result = new PhaseLevelStatistics[levels];
        for (int i = 0; i < levels; i++)
        {
            PhaseLevelStatistics first = snapshots[0][i];
            result[i] = first with
            {
                SplitTime = snapshots.Min(s => s[i].SplitTime),
                ExecuteTime = snapshots.Min(s => s[i].ExecuteTime),
                MergeTime = snapshots.Min(s => s[i].MergeTime),
            };
        }

        return result;
    }

    private static ProgramModel? LoadModel(string name, string? folder, ProblemSize? size, List<string> problems)
    {
        ProgramModel model;
        try
        {
            model = folder is null ? ModelStore.LoadDefault(name) : ModelStore.Load(folder, name);
        }
        catch (Exception e) when (e is ArgumentException or FileNotFoundException or InvalidDataException or IOException or UnauthorizedAccessException)
        {
            problems.Add(e.Message);
            return null;
        }

        if (size is not { } s)
        {
            return model;
        }

        if (!SampleCatalog.Names.Contains(name))
        {
            problems.Add($"Program '{name}' is not a sample program, so it has no {s.ToString().ToLowerInvariant()} size; use --size model.");
            return null;
        }

        return model.ScaledTo(SampleCatalog.Create(name, s).ProblemSize);
    }

    private static void CheckWritable(string folder, List<string> problems)
    {
        try
        {
            Directory.CreateDirectory(folder);
            string probe = Path.Combine(folder, $".divcon-write-test-{Environment.ProcessId}");
            File.WriteAllText(probe, string.Empty);
            File.Delete(probe);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            problems.Add($"Cannot write to the output folder '{folder}': {e.Message}");
        }
    }

    private static string[]? SplitList(string[]? values) =>
        values?.SelectMany(v => v.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)).ToArray();

    private static int[] ParseInts(string[]? values, string option, List<string> problems, int defaultValue)
    {
        string[]? items = SplitList(values);
        if (items is null || items.Length == 0)
        {
            return [defaultValue];
        }

        var result = new List<int>();
        foreach (string item in items)
        {
            if (int.TryParse(item, NumberStyles.None, CultureInfo.InvariantCulture, out int v) && v >= 1)
            {
                result.Add(v);
            }
            else
            {
                problems.Add($"{option} takes positive integers; got '{item}'.");
            }
        }

        return result.ToArray();
    }

    /// <summary>Parses 30s, 2m, 500ms, 20us, 100ns (a bare number is seconds) into nanoseconds; null when not given.</summary>
    internal static long? ParseDuration(string? text, string option, List<string> problems, bool allowZero = false)
    {
        if (text is null)
        {
            return null;
        }

        (string unit, double scale)[] units = [("ns", 1), ("us", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9)];
        string t = text.Trim();
        double factor = 1e9;
        foreach ((string unit, double scale) in units)
        {
            if (t.EndsWith(unit, StringComparison.Ordinal) && (unit != "s" || !t.EndsWith("ns", StringComparison.Ordinal) && !t.EndsWith("us", StringComparison.Ordinal) && !t.EndsWith("ms", StringComparison.Ordinal)))
            {
                t = t[..^unit.Length];
                factor = scale;
                break;
            }
        }

        if (double.TryParse(t, NumberStyles.Float, CultureInfo.InvariantCulture, out double value) && double.IsFinite(value)
            && (value > 0 || (allowZero && value == 0)) && value * factor < long.MaxValue)
        {
            return (long)Math.Round(value * factor);
        }

        problems.Add($"{option} takes a {(allowZero ? "non-negative" : "positive")} duration such as 30s, 2m, 500ms, 20us or 100ns; got '{text}'.");
        return null;
    }

    private static T Invalid<T>(List<string> problems, string message)
    {
        problems.Add(message);
        return default!;
    }

    /// <summary>The stdout table of one simulation: per scheme ANTT, MNTT, STP and each program's NTT.</summary>
    internal static string Table(string workload, SimulationResult result)
    {
        var sb = new StringBuilder();
        var names = result.Request.Programs.Select(p => p.Name).ToArray();
        sb.Append(CultureInfo.InvariantCulture, $"{workload}, {result.Request.Cores} cores, {result.Request.DurationNs / 1e9:0.###} s simulated, {result.Request.Repeat} repetition(s)\n");
        sb.Append(CultureInfo.InvariantCulture, $"  {"program",-14}");
        foreach (IsolatedResult iso in result.Isolated)
        {
            sb.Append(CultureInfo.InvariantCulture, $" {iso.Program,13}");
        }

        sb.Append('\n').Append(CultureInfo.InvariantCulture, $"  {"C^SP (s)",-14}");
        foreach (IsolatedResult iso in result.Isolated)
        {
            sb.Append(CultureInfo.InvariantCulture, $" {iso.Csp.Mean,13:0.0000}");
        }

        sb.Append('\n').Append(CultureInfo.InvariantCulture, $"  {"scalability",-14}");
        foreach (IsolatedResult iso in result.Isolated)
        {
            sb.Append(CultureInfo.InvariantCulture, $" {iso.Scalability,13:0.00}");
        }

        sb.Append('\n').Append(CultureInfo.InvariantCulture, $"  {"scheme",-22} {"ANTT",7} {"MNTT",7} {"STP",7}  NTT per program\n");
        foreach (SchemeResult s in result.Schemes)
        {
            sb.Append(CultureInfo.InvariantCulture, $"  {s.Scheme,-22} {Num(s.Antt),7} {Num(s.Mntt),7} {Num(s.Stp),7} ");
            sb.Append(string.Join(" ", s.Programs.Select(p => string.Create(CultureInfo.InvariantCulture, $"{p.Program}={Num(p.Ntt?.Mean)}({p.CmpRunsNs.Count})"))));
            sb.Append('\n');
        }

        return sb.ToString();

        static string Num(double? v) => v is { } x ? x.ToString("0.000", CultureInfo.InvariantCulture) : "n/a";
    }
}
