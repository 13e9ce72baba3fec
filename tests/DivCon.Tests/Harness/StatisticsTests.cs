using DivCon.Metrics;
using DivCon.Metrics.Statistics;

namespace DivCon.Tests.Harness;

public sealed class StatisticsTests
{
    [Theory]
    [InlineData(1, 63.657)]
    [InlineData(2, 9.925)]
    [InlineData(5, 4.032)]
    [InlineData(10, 3.169)]
    [InlineData(19, 2.861)]
    [InlineData(29, 2.756)]
    [InlineData(99, 2.626)]
    public void StudentT_TwoSided99_MatchesTabulatedQuantiles(int df, double expected)
    {
        Assert.Equal(expected, StudentTQuantiles.TwoSided(df), 3);
        // Cached: a second call gives the identical value (bit for bit, not just to three decimals).
        double first = StudentTQuantiles.TwoSided(df);
        double second = StudentTQuantiles.TwoSided(df);
        Assert.Equal(first.ToString("R", System.Globalization.CultureInfo.InvariantCulture), second.ToString("R", System.Globalization.CultureInfo.InvariantCulture));
    }

    [Theory]
    [InlineData(1, 0.9999, 6366.198)]   // Cauchy: tan(π · 0.49995)
    [InlineData(2, 0.9999, 99.992)]     // (2p − 1) / √(2p(1 − p))
    [InlineData(3, 0.99986, double.NaN)] // family-wise levels far in the tail, where MathNet's own root finder gives up
    public void StudentT_FarInTheTail_WithFewDegreesOfFreedom(int df, double confidence, double expected)
    {
        double t = StudentTQuantiles.TwoSided(df, confidence);

        if (!double.IsNaN(expected))
        {
            Assert.Equal(expected, t, 2);
        }

        Assert.Equal(1 - ((1 - confidence) / 2), MathNet.Numerics.Distributions.StudentT.CDF(0, 1, df, t), 9);
    }

    [Fact]
    public void StudentT_NinetyFivePercent_MatchesTable()
    {
        Assert.Equal(2.776, StudentTQuantiles.TwoSided(4, 0.95), 3);
    }

    [Fact]
    public void Summarize_OneTwoThree_HandComputed()
    {
        // mean 2; Σ(x−2)² = 2, /(n−1) = 1 → sd 1; RSD 0.5; half-width 9.925 · 1 / √3 = 5.7301.
        Estimate e = Descriptive.Summarize([1.0, 2.0, 3.0]);

        Assert.Equal(3, e.Count);
        Assert.Equal(2.0, e.Mean, 12);
        Assert.Equal(1.0, e.StandardDeviation!.Value, 12);
        Assert.Equal(0.5, e.RelativeStandardDeviation!.Value, 12);
        Assert.Equal(-3.7301, e.Ci99!.Value.Lower, 3);
        Assert.Equal(7.7301, e.Ci99!.Value.Upper, 3);
    }

    [Fact]
    public void Summarize_UsesBesselsCorrection()
    {
        // Σ(x−5)² = 32 over 8 values: the population SD would be 2, the sample SD is √(32/7) = 2.13809.
        Estimate e = Descriptive.Summarize([2.0, 4, 4, 4, 5, 5, 7, 9]);

        Assert.Equal(5.0, e.Mean, 12);
        Assert.Equal(2.13809, e.StandardDeviation!.Value, 5);
        // t(0.995, 7) = 3.49948; half-width = 3.49948 · 2.13809 / √8 = 2.64536.
        Assert.Equal(2.64536, (e.Ci99!.Value.Upper - e.Ci99.Value.Lower) / 2, 4);
    }

    [Fact]
    public void Summarize_OneValue_HasNoSpread()
    {
        Estimate e = Descriptive.Summarize([4.5]);

        Assert.Equal(4.5, e.Mean);
        Assert.Null(e.StandardDeviation);
        Assert.Null(e.RelativeStandardDeviation);
        Assert.Null(e.Ci99);
    }

    [Fact]
    public void Summarize_RejectsEmptyAndNonFinite()
    {
        Assert.Throws<ArgumentException>(() => Descriptive.Summarize(Array.Empty<double>()));
        Assert.Throws<ArgumentException>(() => Descriptive.Summarize([1.0, double.NaN]));
    }

    [Fact]
    public void Metrics_HandComputedWorkload()
    {
        // A: alone 1 s, together 3 s → NTT 3, NP 1/3. B: alone 2 s, together 5 s → NTT 2.5, NP 0.4.
        double nttA = MultiprogramMetrics.Ntt(cmp: 3, csp: 1), nttB = MultiprogramMetrics.Ntt(cmp: 5, csp: 2);
        double npA = 1 / nttA, npB = 1 / nttB;

        Assert.Equal(3.0, nttA, 12);
        Assert.Equal(2.5, nttB, 12);
        Assert.Equal(1.0 / 3, npA, 12);
        Assert.Equal(0.4, npB, 12);
        Assert.Equal(2.75, MultiprogramMetrics.Antt([nttA, nttB]), 12);
        Assert.Equal(3.0, MultiprogramMetrics.Mntt([nttA, nttB]), 12);
        Assert.Equal(0.733333, MultiprogramMetrics.Stp([npA, npB]), 6);
    }

    [Fact]
    public void Metrics_NoInterference_GivesIdealValues()
    {
        double[] ntts = [1.0, 1.0, 1.0];
        Assert.Equal(1.0, MultiprogramMetrics.Antt(ntts));
        Assert.Equal(1.0, MultiprogramMetrics.Mntt(ntts));
        Assert.Equal(3.0, MultiprogramMetrics.Stp(ntts));
    }

    [Fact]
    public void Metrics_RejectNonPositiveAndEmpty()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => MultiprogramMetrics.Ntt(0, 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => MultiprogramMetrics.Ntt(1, -1));
        Assert.Throws<ArgumentException>(() => MultiprogramMetrics.Antt(Array.Empty<double>()));
    }

    [Fact]
    public void Fieller_IndependentRuns_HandComputed()
    {
        // C^MP runs {9, 11}: mean 10, s² 2, v_xx = 1. C^SP runs {1.9, 2.1}: mean 2, s² 0.02, v_yy = 0.01. θ = 5.
        // df (Welch–Satterthwaite on v_xx and θ²v_yy = 0.25) = 1.25² / (1² + 0.25²) = 1.470588.
        // The interval: roots of (4 − t²·0.01) θ² − 40 θ + (100 − t²·1) = 0; g = t²·0.01 / 4.
        RatioEstimate r = RatioEstimate.Of([9.0, 11.0], [1.9, 2.1], RatioBasis.Runs);

        double t = StudentTQuantiles.TwoSided(1.25 * 1.25 / (1 + 0.0625));
        double a = 4 - (t * t * 0.01), c = 100 - (t * t);
        double root = Math.Sqrt((40.0 * 40) - (4 * a * c));
        Assert.Equal(5.0, r.Mean, 12);
        Assert.Equal(RatioBasis.Runs, r.Basis);
        Assert.Equal(1.470588, r.DegreesOfFreedom!.Value, 6);
        Assert.Equal(t * t * 0.01 / 4, r.G!.Value, 9);
        Assert.Equal((40 - root) / (2 * a), r.Ci99!.Value.Lower, 9);
        Assert.Equal((40 + root) / (2 * a), r.Ci99!.Value.Upper, 9);
        // Not symmetric: the denominator's noise stretches the upper side.
        Assert.True(r.Ci99!.Value.Upper - 5 > 5 - r.Ci99!.Value.Lower);
        Assert.Equal(Math.Sqrt(2) / 10, r.RelativeStandardDeviation!.Value, 12);
    }

    [Fact]
    public void Fieller_FixedDenominator_ScalesTheNumeratorsInterval()
    {
        // With no spread in C^SP, g = 0 and Fieller is the numerator's own t-interval divided by C^SP.
        RatioEstimate r = RatioEstimate.Of([1.0, 2.0, 3.0], [2.0, 2.0, 2.0], RatioBasis.Runs);
        Estimate numerator = Descriptive.Summarize([1.0, 2.0, 3.0]);

        Assert.Equal(1.0, r.Mean, 12);
        Assert.Equal(0, r.G!.Value);
        Assert.Equal(2.0, r.DegreesOfFreedom!.Value, 9);
        Assert.Equal(numerator.Ci99!.Value.Lower / 2, r.Ci99!.Value.Lower, 9);
        Assert.Equal(numerator.Ci99!.Value.Upper / 2, r.Ci99!.Value.Upper, 9);
    }

    [Fact]
    public void Fieller_PairedMeans_UseTheirCovariance()
    {
        // Each invocation's C^MP is exactly 5 × its C^SP: the invocations differ a lot, their ratio not at all. Paired,
        // x̄ − 5ȳ has no variance and the interval is the point; taken as independent samples it is wide.
        double[] csp = [1.0, 1.4, 0.8, 1.2];
        double[] cmp = csp.Select(v => 5 * v).ToArray();

        RatioEstimate paired = RatioEstimate.Of(cmp, csp, RatioBasis.Invocations);
        RatioEstimate unpaired = RatioEstimate.Of(cmp, csp, RatioBasis.Runs);

        Assert.Equal(RatioBasis.Invocations, paired.Basis);
        Assert.Equal(4, paired.Count);
        Assert.Equal(3.0, paired.DegreesOfFreedom!.Value);
        Assert.Equal(5.0, paired.Ci99!.Value.Lower, 6);
        Assert.Equal(5.0, paired.Ci99!.Value.Upper, 6);
        Assert.True(unpaired.Ci99 is null || unpaired.Ci99.Value.Upper - unpaired.Ci99.Value.Lower > 1);
    }

    [Fact]
    public void Fieller_PairedMeans_HandComputed()
    {
        // x = {10, 12, 14} (C^MP means), y = {2, 2.5, 2.6} (C^SP means), n = 3, df 2, t = t(0.995, 2).
        // x̄ = 12, ȳ = 2.366667; s_xx = 4, s_yy = 0.103333, s_xy = 0.6; v = s / 3.
        double[] x = [10.0, 12.0, 14.0], y = [2.0, 2.5, 2.6];
        RatioEstimate r = RatioEstimate.Of(x, y, RatioBasis.Invocations);

        double t2 = Math.Pow(StudentTQuantiles.TwoSided(2), 2);
        double yBar = 7.1 / 3, vxx = 4.0 / 3, vyy = 0.31 / 3 / 3, vxy = 0.6 / 3;
        double qa = (yBar * yBar) - (t2 * vyy), qb = -2 * ((12 * yBar) - (t2 * vxy)), qc = 144 - (t2 * vxx);
        double root = Math.Sqrt((qb * qb) - (4 * qa * qc));
        Assert.Equal(12 / yBar, r.Mean, 12);
        Assert.Equal(t2 * vyy / (yBar * yBar), r.G!.Value, 9);
        Assert.Equal((-qb - root) / (2 * qa), r.Ci99!.Value.Lower, 9);
        Assert.Equal((-qb + root) / (2 * qa), r.Ci99!.Value.Upper, 9);
    }

    [Fact]
    public void Fieller_NoisyDenominator_HasNoBoundedInterval()
    {
        // C^SP means that straddle a wide range: g = t² v_yy / ȳ² ≥ 1, the denominator is not clearly away from 0.
        RatioEstimate r = RatioEstimate.Of([2.0, 2.1, 1.9], [0.2, 1.0, 3.0], RatioBasis.Invocations);

        Assert.True(r.G >= 1, $"g = {r.G}");
        Assert.Null(r.Ci99);
        Assert.Null(r.Reciprocal().Ci99);
    }

    [Fact]
    public void Fieller_Reciprocal_IsTheImageOfTheInterval()
    {
        RatioEstimate ntt = RatioEstimate.Of([9.0, 11.0, 10.0, 10.0], [1.9, 2.1, 2.0, 2.0], RatioBasis.Runs);
        RatioEstimate np = ntt.Reciprocal();

        Assert.Equal(0.2, np.Mean, 12);
        Assert.Equal(1 / ntt.Ci99!.Value.Upper, np.Ci99!.Value.Lower, 12);
        Assert.Equal(1 / ntt.Ci99!.Value.Lower, np.Ci99!.Value.Upper, 12);
        Assert.Equal(ntt.G, np.G);
    }

    [Fact]
    public void Fieller_OneValue_HasNoInterval()
    {
        RatioEstimate r = RatioEstimate.Of([3.0], [1.0, 1.2], RatioBasis.Runs);
        RatioEstimate p = RatioEstimate.Of([3.0], [1.0], RatioBasis.Invocations);

        Assert.Equal(3.0 / 1.1, r.Mean, 12);
        Assert.Null(r.Ci99);
        Assert.Null(p.Ci99);
        Assert.Throws<ArgumentException>(() => RatioEstimate.Of([1.0, 2.0], [1.0], RatioBasis.Invocations));
    }

    [Theory]
    [InlineData(new[] { 0.01, 0.04, 0.03, 0.005 }, new[] { 0.03, 0.06, 0.06, 0.02 })]
    [InlineData(new[] { 0.6, 0.7 }, new[] { 1.0, 1.0 })]
    [InlineData(new[] { 0.02 }, new[] { 0.02 })]
    [InlineData(new[] { 0.01, 0.01, 0.2 }, new[] { 0.03, 0.03, 0.2 })]
    public void Holm_AdjustedPValues_HandComputed(double[] p, double[] expected)
    {
        // m = 4: sorted 0.005, 0.01, 0.03, 0.04 → 4·0.005 = 0.02, max(0.02, 3·0.01) = 0.03, max(0.03, 2·0.03) = 0.06,
        // max(0.06, 1·0.04) = 0.06. Capped at 1; ties get the same value; the last step never falls below the one before.
        double?[] adjusted = Holm.Adjust(p.Cast<double?>().ToArray());

        Assert.Equal(expected.Length, adjusted.Length);
        for (int i = 0; i < expected.Length; i++)
        {
            Assert.Equal(expected[i], adjusted[i]!.Value, 12);
        }
    }

    [Fact]
    public void Holm_SkipsTestsThatCouldNotRun()
    {
        // m = 2 (the null does not count): 2·0.2 = 0.4, max(0.4, 0.5) = 0.5.
        double?[] adjusted = Holm.Adjust([0.2, null, 0.5]);

        Assert.Equal(0.4, adjusted[0]!.Value, 12);
        Assert.Null(adjusted[1]);
        Assert.Equal(0.5, adjusted[2]!.Value, 12);
        Assert.Throws<ArgumentException>(() => Holm.Adjust([1.5]));
    }

    [Fact]
    public void PairedRatio_HandComputed()
    {
        // ln a − ln b = {0.1, 0.2, 0.3}: mean 0.2, sd 0.1, t = 0.2 / (0.1/√3) = 3.464102, df 2. For t with 2 df,
        // P(T ≤ x) = 1/2 + x / (2√(2 + x²)) = 1/2 + 3.464102 / (2√14) → two-sided p = 0.074180.
        // Ratio e^0.2 = 1.221403; 99 %: exp(0.2 ± 9.924843 · 0.1/√3) = [0.688658, 2.166279].
        double[] b = [1.0, 2.0, 4.0];
        double[] a = [Math.Exp(0.1), 2 * Math.Exp(0.2), 4 * Math.Exp(0.3)];

        PairedRatioResult r = PairedRatio.Compare(a, b);

        Assert.Equal(3, r.Pairs);
        Assert.Equal(1.221403, r.Ratio, 6);
        Assert.Equal(0.1, r.SdLog!.Value, 12);
        Assert.Equal(3.464102, r.T!.Value, 6);
        Assert.Equal(2.0, r.DegreesOfFreedom!.Value);
        Assert.Equal(1 - (2 * 3.464102 / (2 * Math.Sqrt(14))), r.P!.Value, 5);
        Assert.Equal(0.688658, r.Ci!.Value.Lower, 5);
        Assert.Equal(2.166279, r.Ci!.Value.Upper, 5);
        // A family-wise (Bonferroni) interval is wider.
        Assert.True(r.IntervalAt(1 - (0.01 / 6))!.Value.Lower < r.Ci!.Value.Lower);
    }

    [Fact]
    public void PairedRatio_OnePair_OrNoSpread()
    {
        PairedRatioResult one = PairedRatio.Compare([2.0], [1.0]);
        PairedRatioResult exact = PairedRatio.Compare([2.0, 4.0], [1.0, 2.0]);

        Assert.Equal(2.0, one.Ratio, 12);
        Assert.Null(one.P);
        Assert.Null(one.IntervalAt(0.99));
        Assert.Equal(0, exact.P);
        Assert.Equal(2.0, exact.Ci!.Value.Lower, 12);
        Assert.Throws<ArgumentException>(() => PairedRatio.Compare([1.0, 0.0], [1.0, 1.0]));
    }

    [Fact]
    public void BlockedAnova_HandComputed()
    {
        // y = [[1, 2], [3, 4], [5, 9]] (3 treatments × 2 blocks): grand mean 4; treatment means 1.5, 3.5, 7; block means
        // 3, 5. SST = 40, SS_t = 2·(6.25 + 0.25 + 9) = 31, SS_b = 3·(1 + 1) = 6, SS_e = 3; df 2, 1, 2.
        // F_t = 15.5 / 1.5 = 10.333 with p = 1/(1 + F) for F(2, 2) = 0.088235; F_b = 6 / 1.5 = 4 with
        // p = 1 − √(F/(F + 2)) for F(1, 2) = 1 − 2/√6 = 0.183503; the blocks explain 6/40 = 15 %.
        BlockedAnovaResult r = BlockedAnova.Analyze([[1.0, 2.0], [3.0, 4.0], [5.0, 9.0]], "scheme", "invocation");

        Assert.Equal("scheme", r.Treatment.Source);
        Assert.Equal(31.0, r.Treatment.SumOfSquares, 9);
        Assert.Equal(2, r.Treatment.DegreesOfFreedom);
        Assert.Equal(31.0 / 3, r.Treatment.F!.Value, 9);
        Assert.Equal(1 / (1 + (31.0 / 3)), r.Treatment.P!.Value, 6);
        Assert.Equal(6.0, r.Block.SumOfSquares, 9);
        Assert.Equal(15.0, r.Block.PercentOfVariation!.Value, 9);
        Assert.Equal(4.0, r.Block.F!.Value, 9);
        Assert.Equal(1 - (2 / Math.Sqrt(6)), r.Block.P!.Value, 6);
        Assert.Equal(3.0, r.Error.SumOfSquares, 9);
        Assert.Equal(1.5, r.Error.MeanSquare!.Value, 9);
        Assert.Equal(Math.Sqrt(3.0), r.PairedDifferenceSd, 12);
    }

    [Fact]
    public void BlockedAnova_TwoTreatments_IsThePairedTTestSquared()
    {
        double[] a = [Math.Log(2.1), Math.Log(2.9), Math.Log(1.7), Math.Log(2.45)];
        double[] b = [Math.Log(2.0), Math.Log(2.7), Math.Log(1.65), Math.Log(2.3)];

        BlockedAnovaResult anova = BlockedAnova.Analyze([a, b]);
        PairedRatioResult t = PairedRatio.Compare(a.Select(Math.Exp).ToArray(), b.Select(Math.Exp).ToArray());

        Assert.Equal(t.T!.Value * t.T.Value, anova.Treatment.F!.Value, 9);
        Assert.Equal(t.P!.Value, anova.Treatment.P!.Value, 9);
    }

    [Fact]
    public void Bootstrap_TwoUnits_HandComputed()
    {
        // Units {1, 3}: a resample's mean is 1, 2 or 3 with probabilities 1/4, 1/2, 1/4, so over 10 000 resamples the
        // 0.5 % and 99.5 % quantiles are 1 and 3; the max of a resample is 3 three times in four.
        double[] units = [1.0, 3.0];
        ConfidenceInterval?[] ci = Bootstrap.Percentile(2, 2, picks => [picks.Average(i => units[i]), picks.Max(i => units[i])]);

        Assert.Equal(new ConfidenceInterval(1, 3), ci[0]);
        Assert.Equal(new ConfidenceInterval(1, 3), ci[1]);
        Assert.Null(Bootstrap.Percentile(1, 1, _ => [1.0])[0]);
    }

    [Fact]
    public void Bootstrap_IsSeeded_AndKeepsAnOrderThatHoldsInEveryResample()
    {
        var random = new Random(5);
        double[] units = Enumerable.Range(0, 12).Select(_ => random.NextDouble() * 10).ToArray();
        double[] Stats(int[] picks) => [picks.Average(i => units[i]), picks.Max(i => units[i])];

        ConfidenceInterval?[] first = Bootstrap.Percentile(units.Length, 2, Stats);
        ConfidenceInterval?[] again = Bootstrap.Percentile(units.Length, 2, Stats);
        ConfidenceInterval?[] other = Bootstrap.Percentile(units.Length, 2, Stats, seed: 99);

        Assert.Equal(first, again);
        Assert.NotEqual(first[0], other[0]);
        Assert.True(first[1]!.Value.Lower >= first[0]!.Value.Lower && first[1]!.Value.Upper >= first[0]!.Value.Upper);
        Assert.InRange(units.Average(), first[0]!.Value.Lower, first[0]!.Value.Upper);
    }

    [Fact]
    public void PairedPower_HandComputed()
    {
        // n = 11, α = 0.01, power 0.8, sd 1: (t(0.995, 10) + t(0.8, 10)) / √11 = (3.169273 + 0.879058) / 3.316625 = 1.220617.
        Assert.Equal(1.220617, PairedPower.MinimumDetectableLogRatio(1, 11, 0.01, 0.8)!.Value, 5);
        Assert.Null(PairedPower.MinimumDetectableLogRatio(1, 1, 0.01, 0.8));
        // The fewest pairs for exactly that difference is 11: the detectable difference falls strictly with n.
        double at11 = PairedPower.MinimumDetectableLogRatio(0.04, 11, 0.01, 0.8)!.Value;
        Assert.Equal(11, PairedPower.RequiredPairs(0.04, at11, 0.01, 0.8, 100));
        Assert.Equal(12, PairedPower.RequiredPairs(0.04, at11 * 0.999, 0.01, 0.8, 100));
        Assert.Null(PairedPower.RequiredPairs(0.04, at11, 0.01, 0.8, 10));
        // A family of m comparisons planned at α/m needs more.
        Assert.True(PairedPower.RequiredPairs(0.04, Math.Log(1.05), 0.01 / 72, 0.8, 100) > PairedPower.RequiredPairs(0.04, Math.Log(1.05), 0.01, 0.8, 100));
    }

    [Fact]
    public void Welch_HandComputed()
    {
        // a = {1,2,3}, b = {4,5,6}: variances 1 and 1; SE² = 1/3 + 1/3; t = −3/√(2/3) = −3.674235;
        // df = (2/3)² / ((1/3)²/2 + (1/3)²/2) = 4; two-sided p = 0.02131 (numerical integration of the t density).
        (double t, double df, double p) = Welch.Test([1.0, 2, 3], [4.0, 5, 6]);

        Assert.Equal(-3.674235, t, 6);
        Assert.Equal(4.0, df, 9);
        Assert.Equal(0.021312, p, 5);
        Assert.True(Welch.Test([1.0, 2, 3, 4, 5], [11.0, 12, 13, 14, 15]).P < 0.001);
    }
}
