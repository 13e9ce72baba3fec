using System.Globalization;
using DivCon.Harness.Metrics;
using DivCon.Harness.Schemes;
using DivCon.Harness.Statistics;

namespace DivCon.Harness.Cyclic;

/// <summary>
/// Turns a cyclic test's raw timings into metrics: a pure function of the recorded durations.
/// <list type="bullet">
/// <item>Per program (pooled over repetitions): C^SP and C^MP as samples of runs; NTT = mean C^MP / mean C^SP and NP = 1/NTT
/// with delta-method intervals (<see cref="RatioEstimate"/>).</item>
/// <item>Per repetition: NTT_i = mean of that repetition's C^MP runs / mean of its C^SP runs; ANTT, MNTT, STP from them.</item>
/// <item>Per scheme: ANTT, MNTT, STP as samples over repetitions (Student-t interval when R ≥ 2).</item>
/// <item>Per pair of schemes: Welch's test on ANTT and on STP over repetitions ("not enough repetitions" when R &lt; 2).</item>
/// </list>
/// A repetition in which some program recorded no multiprogram run has no system-level metrics (a warning says so).
/// </summary>
public static class CyclicAnalysis
{
    /// <summary>Analyzes <paramref name="repetitions"/> for <paramref name="schemes"/> (name, description) in report order.</summary>
    public static (IReadOnlyList<SchemeResult> Schemes, IReadOnlyList<SchemeComparison> Comparisons) Analyze(
        IReadOnlyList<string> programs,
        IReadOnlyList<(string Name, string Description)> schemes,
        IReadOnlyList<RepetitionData> repetitions,
        IReadOnlyDictionary<string, IReadOnlyList<SchedulerStats>>? schedulers = null)
    {
        ArgumentNullException.ThrowIfNull(programs);
        ArgumentNullException.ThrowIfNull(schemes);
        ArgumentNullException.ThrowIfNull(repetitions);
        if (repetitions.Count == 0)
        {
            throw new ArgumentException("At least one repetition is needed.", nameof(repetitions));
        }

        int n = programs.Count;
        var spPooled = Enumerable.Range(0, n).Select(i => repetitions.SelectMany(r => r.SingleProgramSeconds[i]).ToArray()).ToArray();
        var results = new List<SchemeResult>();
        var perRepetition = new Dictionary<string, RepetitionMetrics[]>();
        foreach (var (scheme, description) in schemes)
        {
            var warnings = new List<string>();
            var programResults = new ProgramResult[n];
            for (int i = 0; i < n; i++)
            {
                double[] cmp = repetitions.SelectMany(r => r.Phases[scheme].RecordedDurations(i)).ToArray();
                int discarded = repetitions.Sum(r => r.Phases[scheme].DiscardedCount(i));
                Estimate csp = Descriptive.Summarize(spPooled[i]);
                if (cmp.Length == 0)
                {
                    double limit = repetitions[^1].Phases[scheme].LimitSeconds;
                    warnings.Add(HeldNoCore(schedulers, scheme, i, limit) is { } held
                        ? string.Create(CultureInfo.InvariantCulture,
                            $"Program '{programs[i]}' finished no run: the scheme's policy gave it almost no core ({held:0.000} core-seconds in a {limit:0.#} s phase, none at the end); with fewer cores than programs a partitioning policy may leave a program without any.")
                        : $"Program '{programs[i]}' finished no run within the time limit; give it a longer --duration.");
                    programResults[i] = new ProgramResult(programs[i], csp, null, 0, discarded, null, null);
                    continue;
                }

                RatioEstimate ntt = RatioEstimate.Of(cmp, spPooled[i]);
                programResults[i] = new ProgramResult(programs[i], csp, Descriptive.Summarize(cmp), cmp.Length, discarded, ntt, ntt.Reciprocal());
            }

            var reps = new RepetitionMetrics[repetitions.Count];
            for (int r = 0; r < repetitions.Count; r++)
            {
                var ntts = new double?[n];
                for (int i = 0; i < n; i++)
                {
                    IReadOnlyList<double> cmp = repetitions[r].Phases[scheme].RecordedDurations(i);
                    ntts[i] = cmp.Count > 0 ? MultiprogramMetrics.Ntt(cmp.Average(), repetitions[r].SingleProgramSeconds[i].Average()) : null;
                }

                if (ntts.All(x => x.HasValue))
                {
                    double[] values = ntts.Select(x => x!.Value).ToArray();
                    reps[r] = new RepetitionMetrics(r + 1, ntts, MultiprogramMetrics.Antt(values), MultiprogramMetrics.Mntt(values),
                        MultiprogramMetrics.Stp(values.Select(v => 1 / v).ToArray()));
                }
                else
                {
                    reps[r] = new RepetitionMetrics(r + 1, ntts, null, null, null);
                    if (repetitions.Count > 1)
                    {
                        warnings.Add(string.Create(CultureInfo.InvariantCulture, $"Repetition {r + 1} has no ANTT/MNTT/STP: a program recorded no run in it."));
                    }
                }
            }

            perRepetition[scheme] = reps;
            results.Add(new SchemeResult(
                scheme,
                description,
                SummarizeOrNull(reps.Select(x => x.Antt)),
                SummarizeOrNull(reps.Select(x => x.Mntt)),
                SummarizeOrNull(reps.Select(x => x.Stp)),
                programResults,
                reps,
                schedulers is not null && schedulers.TryGetValue(scheme, out var s) ? s : [],
                warnings));
        }

        var comparisons = new List<SchemeComparison>();
        for (int a = 0; a < schemes.Count; a++)
        {
            for (int b = a + 1; b < schemes.Count; b++)
            {
                foreach ((string metric, Func<RepetitionMetrics, double?> get) in new (string, Func<RepetitionMetrics, double?>)[] { ("antt", x => x.Antt), ("stp", x => x.Stp) })
                {
                    double[] va = perRepetition[schemes[a].Name].Select(get).Where(v => v.HasValue).Select(v => v!.Value).ToArray();
                    double[] vb = perRepetition[schemes[b].Name].Select(get).Where(v => v.HasValue).Select(v => v!.Value).ToArray();
                    if (va.Length > 0 && vb.Length > 0)
                    {
                        comparisons.Add(new SchemeComparison(schemes[a].Name, schemes[b].Name, metric, WelchTest.Compare(va, vb)));
                    }
                }
            }
        }

        return (results, comparisons);
    }

    // A partitioned pool reports the core-time each program held (the statistics are the last repetition's): a program
    // that holds no core at the end and held less than 5 % of one core over the phase was starved by the policy (it may
    // have held one for a moment while the programs were being registered: the first one holds every worker until the
    // next arrives, and a parked worker takes a while to wake and switch on a loaded machine). Returns the core-seconds held, or null.
    private static double? HeldNoCore(IReadOnlyDictionary<string, IReadOnlyList<SchedulerStats>>? schedulers, string scheme, int program, double limitSeconds) =>
        schedulers is not null && schedulers.TryGetValue(scheme, out var stats) && program < stats.Count
        && stats[program] is { PoolId: not null, Workers: 0, CoreSeconds: double held } && held < 0.05 * limitSeconds
            ? held
            : null;

    private static Estimate? SummarizeOrNull(IEnumerable<double?> values)
    {
        double[] present = values.Where(v => v.HasValue).Select(v => v!.Value).ToArray();
        return present.Length > 0 ? Descriptive.Summarize(present) : null;
    }
}
