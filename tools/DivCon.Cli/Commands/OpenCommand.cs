using System.CommandLine;
using System.Globalization;
using DivCon.Harness.Open;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Metrics.Schemes;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon open</c>: an open workload (<see cref="OpenExperiment"/>): jobs arrive (seeded Poisson arrivals, or a trace),
/// run and leave; every scheme runs the same arrivals; per job class the slowdown quantiles, throughput and
/// utilisation per scheme with 99 % intervals over repetitions. The defaults take about 1.5 minutes on 2 cores.
/// </summary>
internal static class OpenCommand
{
    private static readonly string[] s_defaultSchemes =
        [SchemeCatalog.TplDefault, SchemeCatalog.Shared, SchemeCatalog.DynamicPartitioned, SchemeCatalog.EqualShares, SchemeCatalog.IdleLending, SchemeCatalog.WorkConserving];

    private const double DefaultRate = 40;
    private const string DefaultDuration = "5s";

    /// <summary>Creates the command; <paramref name="catalog"/> holds the programs the batch class may run.</summary>
    public static Command Create(ProgramCatalog catalog)
    {
        ArgumentNullException.ThrowIfNull(catalog);
        var rateOption = CommandInput.Declare<double?>("--rate", $"Poisson arrivals per second (default {DefaultRate}).");
        var durationOption = CommandInput.Declare<string?>("--duration", $"How long jobs arrive, e.g. 5s or 500ms (default {DefaultDuration}).");
        var traceOption = CommandInput.Declare<string?>("--trace",
            "Arrivals from a file instead (one job per line: 'seconds class'; '#' comments); replaces --rate and --duration.");
        var repeatOption = CommandInput.Declare<int>("--repeat",
            "Repetitions: each a new arrival sequence run by every scheme; 99 % intervals need at least 2 (default 3).", 3);
        var seedOption = CommandInput.Declare("--seed", "Seeds the arrival sequences, the order of the schemes and the programs' inputs.", 1);
        var schemesOption = CommandInput.List("--schemes",
            $"Schemes, comma- or space-separated (default: {string.Join(",", s_defaultSchemes)}). Allowed: {string.Join(", ", SchemeCatalog.All.Where(OpenExperiment.Supports).Select(s => s.Name))}.",
            s_defaultSchemes);
        var baselineOption = CommandInput.Declare<string>("--baseline", "The scheme the others are compared with (default tpl-default).", SchemeCatalog.TplDefault);
        var mixOption = CommandInput.Declare<string?>("--mix",
            "Class weights, e.g. request=0.85,report=0.1,batch=0.05 (a class not named keeps its default; 0 leaves it out). "
            + "request: Parallel.For (~4 ms); report: async, awaits between Parallel.ForEach chunks (~40 ms); batch: a D&C program.");
        var batchOption = CommandInput.Declare<string>("--batch-program", $"The D&C program of the batch class (default mergesort). Known: {catalog.Names}.", "mergesort");
        var sizeOption = CommandInput.Size("small", "small or medium (default small)");
        var intervalOption = CommandInput.Declare<string>("--interval", "Repartitioning interval of the partitioned schemes (default 100ms).", "100ms");
        var loopsOption = CommandInput.Declare<string>("--loops",
            "How requests and reports write their loops, the same in every scheme: parallel (.NET's Parallel.For/ForEach, default) "
            + "or chunked (DivCon's ChunkedLoops.ForAsync, awaited: a worker can move between programs between two chunks).", OpenLoops.Parallel);
        var aloneOption = CommandInput.Declare<int>("--alone-runs", "Timed runs of each class alone, on every core and on one (default 5).", 5);
        var coresOption = CommandInput.Cores();
        var overBudgetOption = CommandInput.OverBudget();
        var plotsOption = CommandInput.Plots();
        var outOption = CommandInput.Out(Path.Combine("results", "open"));
        var command = new Command("open",
            "An open workload: jobs arrive over time (Poisson or a trace), drawn from a mix of short latency-sensitive jobs and long throughput jobs, "
            + "and leave; each scheme runs the same arrivals. Per class the slowdown p50/p95/p99, throughput and utilisation per scheme, with 99 % "
            + "intervals over repetitions and paired comparisons with the baseline; writes open.json, open.csv, report.md and a slowdown CDF per scheme.")
        {
            rateOption, durationOption, traceOption, repeatOption, seedOption, schemesOption, baselineOption, mixOption, batchOption, sizeOption,
            intervalOption, loopsOption, aloneOption, coresOption, overBudgetOption, plotsOption, outOption,
        };

        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            string? tracePath = parse.GetValue(traceOption);
            double? rate = parse.GetValue(rateOption);
            string? durationText = parse.GetValue(durationOption);
            problems.AddIf(tracePath is not null && (rate is not null || durationText is not null), "--trace replaces --rate and --duration; give either the trace or a rate and duration.");

            rate ??= DefaultRate;
            problems.AddIf(!(rate > 0 && double.IsFinite(rate.Value)), $"--rate must be a positive number of jobs per second; got {rate.Value.ToString(CultureInfo.InvariantCulture)}.");

            long? durationNs = DurationParser.Nanoseconds(durationText ?? DefaultDuration, "--duration", problems);
            long? intervalNs = DurationParser.Nanoseconds(parse.GetValue(intervalOption), "--interval", problems);
            int repeat = CommandInput.AtLeast(parse, repeatOption, 1, problems);
            int aloneRuns = CommandInput.AtLeast(parse, aloneOption, 1, problems);
            int seed = parse.GetValue(seedOption);

            List<SchemeInfo> schemes = CommandInput.ReadEach(parse, schemesOption, name => SchemeCatalog.Find(name) switch
            {
                null => CommandInput.Problem<SchemeInfo>(problems,
                    $"unknown scheme '{name}'; allowed: {string.Join(", ", SchemeCatalog.All.Where(OpenExperiment.Supports).Select(s => s.Name))}."),
                { } scheme when !OpenExperiment.Supports(scheme) => CommandInput.Problem<SchemeInfo>(problems,
                    $"scheme '{name}' cannot run an open workload (it starts a scheduler per program, a pool of threads per arriving job)."),
                { } scheme => [scheme],
            });

            string baseline = parse.GetValue(baselineOption) ?? SchemeCatalog.TplDefault;
            SchemeInfo? baselineScheme = schemes.FirstOrDefault(s => string.Equals(s.Name, baseline, StringComparison.OrdinalIgnoreCase));
            problems.AddIf(schemes.Count > 0 && baselineScheme is null, $"--baseline '{baseline}' is not one of the schemes run ({string.Join(", ", schemes.Select(s => s.Name))}).");

            Dictionary<string, double> weights = ReadMix(parse.GetValue(mixOption), problems);
            WorkloadSize size = CommandInput.ReadSize(parse, sizeOption, problems, WorkloadSize.Small, WorkloadSize.Medium);
            string batchName = parse.GetValue(batchOption) ?? string.Empty;
            ProgramEntry? batch = catalog.Find(batchName);
            problems.AddIf(batch is null, $"--batch-program: unknown program '{batchName}'; known: {catalog.Names}.");

            var (budget, processors, notes) = CommandInput.ReadCores(parse, coresOption, overBudgetOption, problems);
            bool png = CommandInput.ReadPlots(parse, plotsOption, problems);

            string loops = (parse.GetValue(loopsOption) ?? OpenLoops.Parallel).ToLowerInvariant();
            bool loopsKnown = OpenLoops.All.Contains(loops);
            problems.AddIf(!loopsKnown, $"--loops takes {string.Join(" or ", OpenLoops.All)}; got '{loops}'.");
            IReadOnlyList<OpenJobClass> classes = batch is null || !loopsKnown ? [] : OpenMix.Create(batch, size, seed, weights, loops).Where(c => c.Weight > 0).ToArray();
            problems.AddIf(batch is not null && loopsKnown && classes.Count == 0, "--mix leaves no class with a positive weight.");

            IReadOnlyList<Arrival>? trace = tracePath is null ? null : ReadTrace(tracePath, classes.Select(c => c.Name).ToArray(), problems);

            string outFolder = CommandInput.ReadOut(parse, outOption, problems);
            var settings = new OpenSettings(
                trace is null ? rate : null, trace is null ? durationNs / 1e9 : null, tracePath, repeat, seed, (intervalNs ?? 0) / 1e6, aloneRuns,
                batch?.Name ?? batchName, CommandInput.Name(size), processors, loops);
            return ExperimentRunner.RunAsync(parse, OpenResult.FileKind, problems, outFolder,
                (progress, token) => OpenExperiment.RunAsync(classes, schemes, baselineScheme!.Name, settings, trace, budget, progress, token),
                result => ResultKinds.Open.Files(result, png), ResultKinds.Open.Table, ct, notes);
        });
        return command;
    }

    private static Dictionary<string, double> ReadMix(string? text, List<string> problems)
    {
        var weights = new Dictionary<string, double>(StringComparer.OrdinalIgnoreCase);
        if (text is null)
        {
            return weights;
        }

        string[] known = [.. OpenMix.DefaultWeights.Select(w => w.Class)];
        foreach (string part in text.Split([',', ' '], StringSplitOptions.RemoveEmptyEntries))
        {
            string[] kv = part.Split('=');
            if (kv.Length != 2 || !double.TryParse(kv[1], NumberStyles.Float, CultureInfo.InvariantCulture, out double w) || !(w >= 0) || !double.IsFinite(w))
            {
                problems.Add($"--mix: '{part}' is not class=weight with a non-negative weight.");
            }
            else if (!known.Contains(kv[0], StringComparer.OrdinalIgnoreCase))
            {
                problems.Add($"--mix: unknown class '{kv[0]}'; classes: {string.Join(", ", known)}.");
            }
            else
            {
                weights[known.First(k => string.Equals(k, kv[0], StringComparison.OrdinalIgnoreCase))] = w;
            }
        }

        return weights;
    }

    private static IReadOnlyList<Arrival>? ReadTrace(string path, IReadOnlyCollection<string> classes, List<string> problems) =>
        CommandInput.Read(() => File.ReadAllLines(path), problems, $"--trace: cannot read '{path}': ") is { } lines
            ? Arrivals.ParseTrace(lines, classes, problems, source: $"--trace {path}")
            : null;
}
