using System.Globalization;
using DivCon.Metrics.Statistics;

namespace DivCon.Metrics;

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
    /// <summary>
    /// Analyzes <paramref name="repetitions"/> for <paramref name="schemes"/> (name, description) in report order.
    /// <paramref name="noRunWarning"/> (scheme, program index) may say why a program recorded no run; otherwise the
    /// warning asks for a longer duration.
    /// </summary>
    public static (IReadOnlyList<SchemeResult> Schemes, IReadOnlyList<SchemeComparison> Comparisons) Analyze(
        IReadOnlyList<string> programs,
        IReadOnlyList<(string Name, string Description)> schemes,
        IReadOnlyList<RepetitionRuns> repetitions,
        Func<string, int, string?>? noRunWarning = null)
    {
        ArgumentNullException.ThrowIfNull(programs);
        ArgumentNullException.ThrowIfNull(schemes);
        ArgumentNullException.ThrowIfNull(repetitions);
        if (repetitions.Count == 0)
        {
            throw new ArgumentException("At least one repetition is needed.", nameof(repetitions));
        }

        int n = programs.Count;
        var spPooled = Enumerable.Range(0, n).Select(i => repetitions.SelectMany(r => r.CspSeconds[i]).ToArray()).ToArray();
        var results = new List<SchemeResult>();
        foreach (var (scheme, description) in schemes)
        {
            var warnings = new List<string>();
            var programResults = new ProgramResult[n];
            for (int i = 0; i < n; i++)
            {
                double[] cmp = repetitions.SelectMany(r => r.Schemes[scheme][i].Seconds).ToArray();
                int discarded = repetitions.Sum(r => r.Schemes[scheme][i].Discarded);
                Estimate csp = Descriptive.Summarize(spPooled[i]);
                if (cmp.Length == 0)
                {
                    warnings.Add(noRunWarning?.Invoke(scheme, i)
                        ?? $"Program '{programs[i]}' finished no run within the time limit; give it a longer --duration.");
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
                    IReadOnlyList<double> cmp = repetitions[r].Schemes[scheme][i].Seconds;
                    ntts[i] = cmp.Count > 0 ? MultiprogramMetrics.Ntt(cmp.Average(), repetitions[r].CspSeconds[i].Average()) : null;
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

            results.Add(new SchemeResult(
                scheme,
                description,
                SummarizeOrNull(reps.Select(x => x.Antt)),
                SummarizeOrNull(reps.Select(x => x.Mntt)),
                SummarizeOrNull(reps.Select(x => x.Stp)),
                programResults,
                reps,
                [],
                warnings));
        }

        return (results, Compare(results));
    }

    /// <summary>Welch's test on the per-repetition ANTT and STP of every pair of schemes that has values for both.</summary>
    public static IReadOnlyList<SchemeComparison> Compare(IReadOnlyList<SchemeResult> schemes)
    {
        ArgumentNullException.ThrowIfNull(schemes);
        var comparisons = new List<SchemeComparison>();
        for (int a = 0; a < schemes.Count; a++)
        {
            for (int b = a + 1; b < schemes.Count; b++)
            {
                foreach ((string metric, Func<RepetitionMetrics, double?> get) in new (string, Func<RepetitionMetrics, double?>)[] { ("antt", x => x.Antt), ("stp", x => x.Stp) })
                {
                    double[] va = schemes[a].Repetitions.Select(get).OfType<double>().ToArray();
                    double[] vb = schemes[b].Repetitions.Select(get).OfType<double>().ToArray();
                    if (va.Length > 0 && vb.Length > 0)
                    {
                        comparisons.Add(new SchemeComparison(schemes[a].Scheme, schemes[b].Scheme, metric, WelchTest.Compare(va, vb)));
                    }
                }
            }
        }

        return comparisons;
    }

    private static Estimate? SummarizeOrNull(IEnumerable<double?> values)
    {
        double[] present = values.OfType<double>().ToArray();
        return present.Length > 0 ? Descriptive.Summarize(present) : null;
    }
}
