using System.Globalization;
using DivCon.Metrics.Statistics;

namespace DivCon.Metrics;

/// <summary>
/// Turns a cyclic test's raw timings into metrics and comparisons: a pure function of the recorded durations. The
/// independent unit is the repetition: a process invocation of a measured test (or a seed of a simulated one). Every
/// scheme of one repetition shares that repetition's C^SP and machine state, so repetitions are <i>blocks</i>, and
/// schemes are compared within them (Georges, Buytaert and Eeckhout, "Statistically rigorous Java performance
/// evaluation", 2007; Kalibera and Jones, "Rigorous benchmarking in reasonable time", 2013).
/// <list type="bullet">
/// <item>Per program: NTT = mean C^MP / mean C^SP over the repetitions (each repetition's own means, each weighted
/// once: a ratio of means), with Fieller's interval over repetitions (paired: each repetition's C^SP serves its C^MP);
/// with one repetition, Fieller over its runs, which says only how noisy the runs were. NP = 1 / NTT.</item>
/// <item>Per repetition: its own NTTs, ANTT, MNTT and STP (what the comparisons pair).</item>
/// <item>Per scheme: ANTT (mean NTT), MNTT (max NTT), STP (Σ 1/NTT) from the ratio-of-means NTTs over the repetitions
/// in which every program recorded a run, with percentile bootstrap intervals over those repetitions.</item>
/// <item>Per pair of schemes (or each scheme against a named baseline), ANTT and STP: a paired t-test of the log ratio
/// over repetitions, the ratio with its interval, and Holm's correction over the whole family; resolved when the
/// adjusted p is below α = 1 − confidence.</item>
/// <item>Per metric: the blocked ANOVA (scheme × repetition, log scale) and the smallest difference the run resolves
/// with the planned power at α / m, and the repetitions a planned difference would need.</item>
/// </list>
/// A repetition in which some program recorded no multiprogram run has no system-level metrics for that scheme (a
/// warning says so) and drops out of that scheme's comparisons.
/// </summary>
public static class CyclicAnalysis
{
    /// <summary>The compared metrics' names.</summary>
    public const string AnttMetric = "antt", StpMetric = "stp";

    /// <summary>The metrics the comparisons and the ANOVA cover, in report order.</summary>
    public static IReadOnlyList<string> ComparedMetrics { get; } = [AnttMetric, StpMetric];

    /// <summary>The verdicts of <see cref="SchemeComparison.Verdict"/>.</summary>
    public const string Resolved = "resolved", NotResolved = "not resolved";

    /// <summary>
    /// Analyzes <paramref name="repetitions"/> for <paramref name="schemes"/> (name, description) in report order.
    /// <paramref name="noRunWarning"/> (scheme, program index) may say why a program recorded no run; otherwise the
    /// warning asks for a longer duration.
    /// </summary>
    /// <exception cref="ArgumentException">No repetition, a repetition without C^SP runs of a program or without a scheme, or invalid options.</exception>
    public static CyclicAnalysisResult Analyze(
        IReadOnlyList<string> programs,
        IReadOnlyList<(string Name, string Description)> schemes,
        IReadOnlyList<RepetitionRuns> repetitions,
        Func<string, int, string?>? noRunWarning = null,
        AnalysisOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(programs);
        ArgumentNullException.ThrowIfNull(schemes);
        ArgumentNullException.ThrowIfNull(repetitions);
        options ??= new AnalysisOptions();
        IReadOnlyList<string> problems = options.Validate(schemes.Select(s => s.Name).ToArray());
        if (problems.Count > 0)
        {
            throw new ArgumentException("Invalid analysis options: " + string.Join(" ", problems), nameof(options));
        }

        if (repetitions.Count == 0)
        {
            throw new ArgumentException("At least one repetition is needed.", nameof(repetitions));
        }

        double[][] cspMeans = [.. programs.Select((name, i) => repetitions.Select((rep, r) => rep.CspSeconds[i].Count > 0
            ? rep.CspSeconds[i].Average()
            : throw new ArgumentException($"Repetition {r + 1} has no C^SP run of '{name}'.", nameof(repetitions))).ToArray())];
        var results = schemes
            .Select(s => AnalyzeScheme(programs, s.Name, s.Description, repetitions, cspMeans, noRunWarning, options))
            .ToArray();
        return new CyclicAnalysisResult(results, Compare(results, options), Infer(results, FamilySize(results.Length, options.Baseline is not null), options));
    }

    // The paired comparisons of ANTT and STP between every pair of schemes in report order (A / B with A first), or
    // between each scheme and AnalysisOptions.Baseline (scheme / baseline), over the repetitions in which both have the
    // metric; Holm-corrected over every comparison that could be run.
    private static IReadOnlyList<SchemeComparison> Compare(IReadOnlyList<SchemeResult> schemes, AnalysisOptions options)
    {
        var tests = new List<(string A, string B, string Metric, PairedRatioResult Test)>();
        foreach (string metric in ComparedMetrics)
        {
            foreach (var (a, b) in Pairs(schemes, options.Baseline))
            {
                var byRepetition = b.Repetitions.Where(x => Value(x, metric) is not null).ToDictionary(x => x.Repetition, x => Value(x, metric)!.Value);
                var paired = a.Repetitions
                    .Where(x => Value(x, metric) is not null && byRepetition.ContainsKey(x.Repetition))
                    .Select(x => (A: Value(x, metric)!.Value, B: byRepetition[x.Repetition]))
                    .ToArray();
                if (paired.Length > 0)
                {
                    tests.Add((a.Scheme, b.Scheme, metric, PairedRatio.Compare(paired.Select(p => p.A).ToArray(), paired.Select(p => p.B).ToArray(), options.Confidence)));
                }
            }
        }

        double?[] holm = Holm.Adjust(tests.Select(t => t.Test.P).ToArray());
        int m = holm.Count(p => p is not null);
        double alpha = 1 - options.Confidence;
        double familyConfidence = 1 - (alpha / Math.Max(1, m));
        return tests.Select((t, k) => new SchemeComparison(
                t.A, t.B, t.Metric, t.Test, holm[k], t.Test.IntervalAt(familyConfidence),
                holm[k] is double p ? p < alpha : null,
                holm[k] is double q ? (q < alpha ? Resolved : NotResolved) : PairedRatio.NotEnoughPairs))
            .ToArray();
    }

    /// <summary>How many comparisons the family has: per metric, every pair of k schemes, or k − 1 against a baseline.</summary>
    public static int FamilySize(int schemes, bool baseline) =>
        ComparedMetrics.Count * (baseline ? Math.Max(0, schemes - 1) : schemes * (schemes - 1) / 2);

    /// <summary>The value of <paramref name="metric"/> (<c>antt</c> or <c>stp</c>) in one repetition.</summary>
    private static double? Value(RepetitionMetrics repetition, string metric) => metric switch
    {
        AnttMetric => repetition.Antt,
        StpMetric => repetition.Stp,
        _ => throw new ArgumentException($"Unknown metric '{metric}'.", nameof(metric)),
    };

    private static IEnumerable<(SchemeResult A, SchemeResult B)> Pairs(IReadOnlyList<SchemeResult> schemes, string? baseline)
    {
        if (baseline is null)
        {
            return schemes.SelectMany((a, i) => schemes.Skip(i + 1).Select(b => (a, b)));
        }

        SchemeResult? reference = schemes.FirstOrDefault(s => string.Equals(s.Scheme, baseline, StringComparison.OrdinalIgnoreCase));
        return reference is null ? [] : schemes.Where(s => !ReferenceEquals(s, reference)).Select(s => (s, reference));
    }

    private static IReadOnlyList<MetricInference> Infer(IReadOnlyList<SchemeResult> schemes, int familySize, AnalysisOptions options)
    {
        double alpha = 1 - options.Confidence;
        double planningAlpha = alpha / Math.Max(1, familySize);
        var result = new List<MetricInference>();
        foreach (string metric in ComparedMetrics)
        {
            int[] complete = schemes.Count == 0 ? [] : schemes[0].Repetitions.Select(x => x.Repetition)
                .Where(r => schemes.All(s => s.Repetitions.FirstOrDefault(x => x.Repetition == r) is { } x && Value(x, metric) is not null))
                .ToArray();
            BlockedAnovaResult? anova = null;
            double? sd = null, detectable = null;
            int? needed = null;
            if (schemes.Count >= 2 && complete.Length >= 2)
            {
                double[][] y = schemes
                    .Select(s => complete.Select(r => Math.Log(Value(s.Repetitions.First(x => x.Repetition == r), metric)!.Value)).ToArray())
                    .ToArray();
                anova = BlockedAnova.Analyze(y, "scheme", "invocation");
                sd = anova.PairedDifferenceSd;
                detectable = PairedPower.MinimumDetectableLogRatio(sd.Value, complete.Length, planningAlpha, options.Power) is double d ? Math.Exp(d) - 1 : null;
                needed = sd.Value == 0 ? 2 : PairedPower.RequiredPairs(sd.Value, Math.Log(1 + options.Detect), planningAlpha, options.Power, options.MaxInvocations);
            }

            result.Add(new MetricInference(metric, complete.Length, anova, sd, familySize, alpha, options.Power, detectable, options.Detect, needed));
        }

        return result;
    }

    private static SchemeResult AnalyzeScheme(
        IReadOnlyList<string> programs,
        string scheme,
        string description,
        IReadOnlyList<RepetitionRuns> repetitions,
        double[][] cspMeans,
        Func<string, int, string?>? noRunWarning,
        AnalysisOptions options)
    {
        int n = programs.Count, count = repetitions.Count;
        var warnings = new List<string>();
        IReadOnlyList<ProgramRuns>[] phases = [.. repetitions.Select((rep, r) => rep.Schemes.TryGetValue(scheme, out IReadOnlyList<ProgramRuns>? phase)
            ? phase
            : throw new ArgumentException($"Repetition {r + 1} has no runs of scheme '{scheme}'.", nameof(repetitions)))];
        double?[][] cmpMeans = [.. Enumerable.Range(0, n).Select(i => phases.Select(p => p[i].Seconds.Count > 0 ? p[i].Seconds.Average() : (double?)null).ToArray())];
        var programResults = new ProgramResult[n];
        for (int i = 0; i < n; i++)
        {
            int runs = phases.Sum(p => p[i].Seconds.Count), discarded = phases.Sum(p => p[i].Discarded);
            Estimate csp = count >= 2 ? Descriptive.Summarize(cspMeans[i]) : Descriptive.Summarize(repetitions[0].CspSeconds[i].ToArray());
            int[] with = Enumerable.Range(0, count).Where(r => cmpMeans[i][r] is not null).ToArray();
            if (with.Length == 0)
            {
                warnings.Add(noRunWarning?.Invoke(scheme, i)
                    ?? $"Program '{programs[i]}' finished no run within the time limit; give it a longer --duration.");
                programResults[i] = new ProgramResult(programs[i], csp, null, 0, discarded, null, null);
                continue;
            }

            // Two or more repetitions: their means, paired; one: its runs. (Arrays: MathNet's statistics of an array and
            // of another list differ in the last bits.)
            RatioBasis basis = count >= 2 ? RatioBasis.Invocations : RatioBasis.Runs;
            double[] numerator = basis == RatioBasis.Invocations ? [.. with.Select(r => cmpMeans[i][r]!.Value)] : [.. phases[0][i].Seconds];
            IReadOnlyList<double> denominator = basis == RatioBasis.Invocations ? with.Select(r => cspMeans[i][r]).ToArray() : repetitions[0].CspSeconds[i];
            Estimate cmp = Descriptive.Summarize(numerator);
            RatioEstimate ntt = RatioEstimate.Of(numerator, denominator, basis, options.Confidence);
            programResults[i] = new ProgramResult(programs[i], csp, cmp, runs, discarded, ntt, ntt.Reciprocal());
        }

        var reps = new RepetitionMetrics[count];
        for (int r = 0; r < count; r++)
        {
            double?[] ntts = Enumerable.Range(0, n)
                .Select(i => cmpMeans[i][r] is double cmp ? MultiprogramMetrics.Ntt(cmp, cspMeans[i][r]) : (double?)null).ToArray();

            double[] values = [.. ntts.OfType<double>()];
            reps[r] = values.Length == n
                ? new RepetitionMetrics(r + 1, ntts, MultiprogramMetrics.Antt(values), MultiprogramMetrics.Mntt(values), MultiprogramMetrics.Stp(values.Select(v => 1 / v).ToArray()))
                : new RepetitionMetrics(r + 1, ntts, null, null, null);
            if (values.Length < n && count > 1)
            {
                warnings.Add(string.Create(CultureInfo.InvariantCulture, $"Invocation {r + 1} has no ANTT/MNTT/STP: a program recorded no run in it."));
            }
        }

        var (antt, mntt, stp) = SystemMetrics(cmpMeans, cspMeans, options);
        return new SchemeResult(scheme, description, antt, mntt, stp, programResults, reps, [], warnings);
    }

    /// <summary>
    /// ANTT, MNTT and STP from the ratio-of-means NTTs over the repetitions in which every program ran, with percentile
    /// bootstrap intervals over those repetitions (the same resamples for all three, so MNTT's bounds are never below
    /// ANTT's).
    /// </summary>
    private static (BootstrapEstimate? Antt, BootstrapEstimate? Mntt, BootstrapEstimate? Stp) SystemMetrics(
        double?[][] cmpMeans, double[][] cspMeans, AnalysisOptions options)
    {
        int n = cmpMeans.Length;
        int[] complete = Enumerable.Range(0, cspMeans[0].Length).Where(r => cmpMeans.All(p => p[r] is not null)).ToArray();
        if (complete.Length == 0)
        {
            return (null, null, null);
        }

        double[] Statistics(int[] picks)
        {
            double[] ntt = Enumerable.Range(0, n)
                .Select(i => picks.Sum(k => cmpMeans[i][complete[k]]!.Value) / picks.Sum(k => cspMeans[i][complete[k]])).ToArray();

            return [MultiprogramMetrics.Antt(ntt), MultiprogramMetrics.Mntt(ntt), MultiprogramMetrics.Stp(ntt.Select(v => 1 / v).ToArray())];
        }

        double[] point = Statistics(Enumerable.Range(0, complete.Length).ToArray());
        ConfidenceInterval?[] ci = Bootstrap.Percentile(complete.Length, 3, Statistics, options.Confidence, options.BootstrapResamples, options.BootstrapSeed);
        return (new BootstrapEstimate(point[0], complete.Length, ci[0]),
            new BootstrapEstimate(point[1], complete.Length, ci[1]),
            new BootstrapEstimate(point[2], complete.Length, ci[2]));
    }
}
