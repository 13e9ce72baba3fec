using DivCon.Harness.Cyclic;

namespace DivCon.Tests.Harness;

public sealed class CyclicAnalysisTests
{
    private static PhaseResult Phase(params (int Program, double Start, double End, bool Recorded)[] runs) =>
        new(["a", "b"], 10, runs.Select(r => new RunRecord(r.Program, r.Start, r.End, r.Recorded)).ToArray());

    private static RepetitionRuns Repetition(IReadOnlyList<IReadOnlyList<double>> csp, Dictionary<string, PhaseResult> phases) =>
        new(csp, phases.ToDictionary(kv => kv.Key, kv => kv.Value.ProgramRuns()));

    /// <summary>One invocation of one program per scheme: C^SP <paramref name="csp"/>, one C^MP run per scheme.</summary>
    private static RepetitionRuns OneProgram(double csp, params (string Scheme, double Cmp)[] schemes) =>
        new([[csp]], schemes.ToDictionary(s => s.Scheme, s => (IReadOnlyList<ProgramRuns>)[new ProgramRuns([s.Cmp], 0)]));

    [Fact]
    public void OneInvocation_HandComputed()
    {
        // SP: a {1, 1}, b {2, 2}. Scheme x: a runs {2, 4} (mean 3) + one discarded; b runs {5} → NTT 3 and 2.5.
        var rep = Repetition(
            [[1.0, 1.0], [2.0, 2.0]],
            new Dictionary<string, PhaseResult>
            {
                ["x"] = Phase((0, 0, 2, true), (1, 0, 5, true), (0, 2, 6, true), (0, 6, 10, false), (1, 5, 10, false)),
            });

        var (schemes, comparisons, _) = CyclicAnalysis.Analyze(["a", "b"], [("x", "scheme x")], [rep]);

        SchemeResult x = Assert.Single(schemes);
        Assert.Equal(3.0, x.Programs[0].Ntt!.Mean, 12);
        Assert.Equal(2.5, x.Programs[1].Ntt!.Mean, 12);
        Assert.Equal(RatioBasis.Runs, x.Programs[0].Ntt!.Basis);
        Assert.Equal(2, x.Programs[0].Runs);
        Assert.Equal(1, x.Programs[0].Discarded);
        Assert.Equal(2.75, x.Antt!.Mean, 12);
        Assert.Equal(3.0, x.Mntt!.Mean, 12);
        Assert.Equal((1 / 3.0) + 0.4, x.Stp!.Mean, 12);
        Assert.Equal(1, x.Antt.Count);
        Assert.Null(x.Antt.Ci99);
        Assert.Null(x.Mntt.Ci99);
        Assert.Empty(comparisons);
        Assert.Empty(x.Warnings);
    }

    [Fact]
    public void Invocations_NttIsARatioOfMeans_NotAMeanOfRatios()
    {
        // Invocation 1: C^SP 1, C^MP 2 (ratio 2); invocation 2: C^SP 2, C^MP 6 (ratio 3). The mean of the ratios would be
        // 2.5; the ratio of the means is ((2 + 6)/2) / ((1 + 2)/2) = 8/3. Each invocation's own ANTT stays its own ratio.
        RepetitionRuns[] reps = [OneProgram(1, ("x", 2)), OneProgram(2, ("x", 6))];

        CyclicAnalysisResult r = CyclicAnalysis.Analyze(["a"], [("x", "x")], reps);

        SchemeResult x = Assert.Single(r.Schemes);
        Assert.Equal(8.0 / 3, x.Programs[0].Ntt!.Mean, 12);
        Assert.Equal(RatioBasis.Invocations, x.Programs[0].Ntt!.Basis);
        Assert.Equal(2, x.Programs[0].Ntt!.Count);
        Assert.Equal(8.0 / 3, x.Antt!.Mean, 12);
        Assert.Equal(2, x.Antt.Count);
        Assert.Equal([2.0, 3.0], x.Repetitions.Select(v => v.Antt!.Value));
        // C^SP and C^MP summarize the invocations' means: n counts invocations.
        Assert.Equal(2, x.Programs[0].Csp.Count);
        Assert.Equal(1.5, x.Programs[0].Csp.Mean, 12);
    }

    /// <summary>
    /// The case, with a known answer: the invocations differ a lot (one runs 35 % slow under every scheme, one
    /// 20 % fast), and scheme y is 10 % slower than x in every invocation, give or take 0.5 %. Welch's test on the
    /// per-invocation ANTTs counts the invocations' spread as noise and sees nothing; the paired analysis takes it out
    /// and resolves the difference after Holm's correction, and the blocked ANOVA attributes the spread to the
    /// invocations.
    /// </summary>
    [Fact]
    public void KnownBlockEffect_PairedAnalysisResolvesWhatWelchMisses()
    {
        double[] block = [1.0, 1.35, 0.8, 1.2, 0.9, 1.1];
        double[] noiseX = [0.004, -0.003, 0.002, -0.001, 0.003, -0.002];
        double[] noiseY = [-0.002, 0.003, -0.004, 0.002, -0.001, 0.001];
        RepetitionRuns[] reps = block
            .Select((m, b) => OneProgram(1, ("x", 2 * m * (1 + noiseX[b])), ("y", 2.2 * m * (1 + noiseY[b]))))
            .ToArray();

        CyclicAnalysisResult r = CyclicAnalysis.Analyze(["a"], [("x", "x"), ("y", "y")], reps);

        double[] anttX = r.Schemes[0].Repetitions.Select(v => v.Antt!.Value).ToArray();
        double[] anttY = r.Schemes[1].Repetitions.Select(v => v.Antt!.Value).ToArray();
        double welchP = Welch.Test(anttX, anttY).P;
        Assert.True(welchP > 0.2, $"Welch p = {welchP}");

        SchemeComparison antt = Assert.Single(r.Comparisons, c => c.Metric == CyclicAnalysis.AnttMetric);
        Assert.Equal(("x", "y"), (antt.SchemeA, antt.SchemeB));
        Assert.Equal(6, antt.Test.Pairs);
        Assert.Equal(1 / 1.1, antt.Test.Ratio, 2);
        Assert.True(antt.HolmP < 0.0001, $"Holm p = {antt.HolmP}");
        Assert.True(antt.Resolved);
        Assert.Equal(CyclicAnalysis.Resolved, antt.Verdict);
        Assert.True(antt.FamilyCi!.Value.Upper < 1, "the simultaneous interval excludes 1");
        Assert.InRange(1 / 1.1, antt.FamilyCi!.Value.Lower, antt.FamilyCi.Value.Upper);

        MetricInference inference = r.Metrics.Single(m => m.Metric == CyclicAnalysis.AnttMetric);
        Assert.True(inference.Anova!.Treatment.P < 0.0001);
        Assert.True(inference.Anova.Block.PercentOfVariation > 80, $"invocations explain {inference.Anova.Block.PercentOfVariation} %");
        Assert.Equal(2, inference.FamilySize); // ANTT and STP for one pair
        Assert.True(inference.MinimumDetectable < 0.05, $"detectable {inference.MinimumDetectable}");
    }

    /// <summary>
    /// The per-repetition ANTTs of <c>docs/results/cyclic-repeat3</c> as committed in 35ca10c (three repetitions of nine
    /// schemes, measured before issue 17; the folder was removed later, as a schema-2 file this build cannot read): the blocked analysis finds a scheme effect (on the raw scale F(8, 16) = 4.66
    /// as the issue computed; on the log scale F = 4.55, p &lt; 0.01) and that the repetitions explain about 31 % of the
    /// variation, while none of the 36 pairwise Welch tests the old report ran is significant at 99 %.
    /// </summary>
    [Fact]
    public void RecordedRepeat3_BlockedAnalysisFindsTheSchemeEffect_EveryWelchTestMisses()
    {
        double[][] antt =
        [
            [3.0237285160126404, 2.8674761675641256, 2.8870515653847058], // oversubscribed-free
            [3.3811183615089, 2.977765987493553, 3.300798258687879],      // oversubscribed-pinned
            [3.120312696294923, 2.619437903386892, 2.806039959250151],    // shared
            [3.082523853819253, 2.8207408636525138, 2.8862693244390063],  // tpl-default
            [2.9489908151375435, 2.928932484130731, 2.932799073208424],   // static-partitioned
            [3.004295896809508, 2.686712787921801, 2.779614292488402],    // dynamic-partitioned
            [3.014214009739637, 2.9371297714571725, 3.1908871493068403],  // equal-shares
            [2.9999585214981437, 2.8109933904687403, 2.98744918785844],   // hill-climbing
            [2.94537078645768, 2.783918986217135, 2.7393841167157063],    // idle-lending
        ];

        BlockedAnovaResult raw = BlockedAnova.Analyze(antt);
        BlockedAnovaResult log = BlockedAnova.Analyze(antt.Select(row => row.Select(v => Math.Log(v)).ToArray()).ToArray(), "scheme", "invocation");

        Assert.Equal(4.66, raw.Treatment.F!.Value, 2);
        Assert.Equal((8, 16), (raw.Treatment.DegreesOfFreedom, raw.Error.DegreesOfFreedom));
        Assert.Equal(31.0, raw.Block.PercentOfVariation!.Value, 0);
        Assert.True(raw.Treatment.P < 0.01, $"p = {raw.Treatment.P}");
        Assert.True(log.Treatment.P < 0.01, $"p = {log.Treatment.P}");
        Assert.True(log.Block.P < 0.01, $"p = {log.Block.P}");
        int welchSignificant = 0;
        for (int a = 0; a < antt.Length; a++)
        {
            for (int b = a + 1; b < antt.Length; b++)
            {
                welchSignificant += Welch.Test(antt[a], antt[b]).P < 0.01 ? 1 : 0;
            }
        }

        Assert.Equal(0, welchSignificant);
    }

    [Fact]
    public void MnttInterval_NeverFallsBelowAntts_OverRandomWorkloads()
    {
        // Property: MNTT ≥ ANTT in every bootstrap resample (a maximum is at least a mean), so both bounds of MNTT's
        // interval are at least ANTT's, and the point too, whatever the data. The old interval (a symmetric t interval on
        // a mean of maxima) fell below ANTT in every scheme of a real run.
        var random = new Random(17);
        for (int trial = 0; trial < 40; trial++)
        {
            int programs = random.Next(1, 5), invocations = random.Next(2, 12);
            string[] names = Enumerable.Range(0, programs).Select(i => $"p{i}").ToArray();
            RepetitionRuns[] reps = Enumerable.Range(0, invocations).Select(_ =>
            {
                double slow = 0.5 + random.NextDouble();
                IReadOnlyList<IReadOnlyList<double>> csp = names.Select(_ => (IReadOnlyList<double>)[0.2 + random.NextDouble(), 0.2 + random.NextDouble()]).ToArray();
                var runs = names.Select((_, i) => new ProgramRuns(
                    Enumerable.Range(0, random.Next(1, 4)).Select(_ => csp[i][0] * slow * (1 + (3 * random.NextDouble()))).ToArray(), 0)).ToArray();
                return new RepetitionRuns(csp, new Dictionary<string, IReadOnlyList<ProgramRuns>> { ["x"] = runs });
            }).ToArray();

            SchemeResult x = Assert.Single(CyclicAnalysis.Analyze(names, [("x", "x")], reps, options: new AnalysisOptions { BootstrapResamples = 2000 }).Schemes);

            Assert.True(x.Mntt!.Mean >= x.Antt!.Mean - 1e-12);
            ConfidenceInterval m = x.Mntt.Ci99!.Value, a = x.Antt.Ci99!.Value;
            Assert.True(m.Lower >= a.Lower - 1e-12, $"trial {trial}: MNTT [{m.Lower}, {m.Upper}] below ANTT [{a.Lower}, {a.Upper}]");
            Assert.True(m.Upper >= a.Upper - 1e-12, $"trial {trial}: MNTT [{m.Lower}, {m.Upper}] below ANTT [{a.Lower}, {a.Upper}]");
            Assert.True(m.Upper >= m.Lower);
        }
    }

    [Fact]
    public void Comparisons_AreHolmCorrectedOverTheWholeFamily_OrAgainstABaseline()
    {
        var random = new Random(3);
        string[] schemes = ["s0", "s1", "s2", "s3"];
        RepetitionRuns[] reps = Enumerable.Range(0, 5)
            .Select(_ => OneProgram(1, schemes.Select((s, k) => (s, (2 + (0.2 * k)) * (1 + (0.05 * random.NextDouble())))).ToArray()))
            .ToArray();

        CyclicAnalysisResult all = CyclicAnalysis.Analyze(["a"], schemes.Select(s => (s, s)).ToArray(), reps);
        CyclicAnalysisResult vsBaseline = CyclicAnalysis.Analyze(["a"], schemes.Select(s => (s, s)).ToArray(), reps, options: new AnalysisOptions { Baseline = "s0" });

        // Every pair, both metrics: 2 · 6 = 12; the adjusted p are Holm's over those 12.
        Assert.Equal(12, all.Comparisons.Count);
        Assert.Equal(CyclicAnalysis.FamilySize(4, baseline: false), all.Comparisons.Count);
        double?[] expected = Holm.Adjust(all.Comparisons.Select(c => c.Test.P).ToArray());
        Assert.Equal(expected, all.Comparisons.Select(c => c.HolmP));
        Assert.All(all.Comparisons, c => Assert.Equal(c.HolmP < 0.01, c.Resolved));
        Assert.All(all.Metrics, m => Assert.Equal(12, m.FamilySize));

        // Against a baseline: 2 · 3 = 6, every one scheme / s0.
        Assert.Equal(6, vsBaseline.Comparisons.Count);
        Assert.All(vsBaseline.Comparisons, c => Assert.Equal("s0", c.SchemeB));
        Assert.Throws<ArgumentException>(() => CyclicAnalysis.Analyze(["a"], [("x", "x")], [OneProgram(1, ("x", 2))], options: new AnalysisOptions { Baseline = "nosuch" }));
    }

    [Fact]
    public void Analysis_IsAPureFunction_BootstrapIncluded()
    {
        var random = new Random(8);
        RepetitionRuns[] reps = Enumerable.Range(0, 6).Select(_ => OneProgram(1, ("x", 2 + random.NextDouble()), ("y", 2.5 + random.NextDouble()))).ToArray();

        CyclicAnalysisResult first = CyclicAnalysis.Analyze(["a"], [("x", "x"), ("y", "y")], reps);
        CyclicAnalysisResult again = CyclicAnalysis.Analyze(["a"], [("x", "x"), ("y", "y")], reps);

        Assert.Equal(first.Schemes.Select(s => s.Antt), again.Schemes.Select(s => s.Antt));
        Assert.Equal(first.Schemes.Select(s => s.Mntt), again.Schemes.Select(s => s.Mntt));
        Assert.Equal(first.Comparisons.Select(c => c.HolmP), again.Comparisons.Select(c => c.HolmP));
    }

    [Fact]
    public void ProgramWithoutRecordedRuns_HasNoNtt_AndAWarning()
    {
        var rep = Repetition(
            [[1.0], [2.0]],
            new Dictionary<string, PhaseResult> { ["x"] = Phase((0, 0, 2, true), (1, 0, 10, false)) });

        var (schemes, _, _) = CyclicAnalysis.Analyze(["a", "b"], [("x", "x")], [rep]);

        Assert.Null(schemes[0].Programs[1].Ntt);
        Assert.Null(schemes[0].Antt);
        Assert.Contains(schemes[0].Warnings, w => w.Contains("'b'", StringComparison.Ordinal));
    }
}
