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
        Assert.Equal(2.64536, e.Ci99!.Value.HalfWidth, 4);
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
        double npA = MultiprogramMetrics.Np(cmp: 3, csp: 1), npB = MultiprogramMetrics.Np(cmp: 5, csp: 2);

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
        Assert.Throws<ArgumentOutOfRangeException>(() => MultiprogramMetrics.Np(1, -1));
        Assert.Throws<ArgumentException>(() => MultiprogramMetrics.Antt(Array.Empty<double>()));
    }

    [Fact]
    public void Ratio_DeltaMethod_HandComputed()
    {
        // C^MP runs {9, 11}: mean 10, s² 2. C^SP runs {1.9, 2.1}: mean 2, s² 0.02. NTT = 5.
        // Relative variances of the means: 2/(2·100) = 0.01 and 0.02/(2·4) = 0.0025; rse² = 0.0125;
        // SE = 5·√0.0125 = 0.559017; df = 0.0125² / (0.01²/1 + 0.0025²/1) = 1.470588.
        RatioEstimate r = RatioEstimate.Of([9.0, 11.0], [1.9, 2.1]);

        Assert.Equal(5.0, r.Mean, 12);
        Assert.Equal(0.559017, r.StandardError!.Value, 6);
        Assert.Equal(1.470588, r.DegreesOfFreedom!.Value, 6);
        double t = StudentTQuantiles.TwoSided(1.470588235294);
        Assert.Equal(5 - (t * 0.559017), r.Ci99!.Value.Lower, 4);
        Assert.Equal(5 + (t * 0.559017), r.Ci99!.Value.Upper, 4);
        // Run-to-run spread as the thesis reports it: SD of c_j / 2 = √2/2; RSD = √2/10.
        Assert.Equal(Math.Sqrt(2) / 2, r.StandardDeviation!.Value, 12);
        Assert.Equal(Math.Sqrt(2) / 10, r.RelativeStandardDeviation!.Value, 12);
    }

    [Fact]
    public void Ratio_FixedDenominator_ScalesTheNumeratorsInterval()
    {
        // With no spread in C^SP the delta method reduces to the numerator's own t-interval divided by C^SP.
        RatioEstimate r = RatioEstimate.Of([1.0, 2.0, 3.0], [2.0, 2.0, 2.0]);
        Estimate numerator = Descriptive.Summarize([1.0, 2.0, 3.0]);

        Assert.Equal(1.0, r.Mean, 12);
        Assert.Equal(2.0, r.DegreesOfFreedom!.Value, 9);
        Assert.Equal(numerator.Ci99!.Value.Lower / 2, r.Ci99!.Value.Lower, 9);
        Assert.Equal(numerator.Ci99!.Value.Upper / 2, r.Ci99!.Value.Upper, 9);
    }

    [Fact]
    public void Ratio_Reciprocal_KeepsRelativeError()
    {
        RatioEstimate ntt = RatioEstimate.Of([9.0, 11.0], [1.9, 2.1]);
        RatioEstimate np = ntt.Reciprocal();

        Assert.Equal(0.2, np.Mean, 12);
        Assert.Equal(0.2 * (0.559017 / 5), np.StandardError!.Value, 6);
        Assert.Equal(ntt.DegreesOfFreedom, np.DegreesOfFreedom);
        Assert.Equal(0.2, (np.Ci99!.Value.Lower + np.Ci99!.Value.Upper) / 2, 12);
    }

    [Fact]
    public void Ratio_OneRun_HasNoInterval()
    {
        RatioEstimate r = RatioEstimate.Of([3.0], [1.0, 1.2]);

        Assert.Equal(3.0 / 1.1, r.Mean, 12);
        Assert.Null(r.Ci99);
        Assert.Null(r.StandardDeviation);
    }

    [Fact]
    public void Welch_HandComputed()
    {
        // a = {1,2,3}, b = {4,5,6}: variances 1 and 1; SE² = 1/3 + 1/3; t = −3/√(2/3) = −3.674235;
        // df = (2/3)² / ((1/3)²/2 + (1/3)²/2) = 4; two-sided p = 0.02131 (numerical integration of the t density).
        WelchTestResult r = WelchTest.Compare([1.0, 2, 3], [4.0, 5, 6]);

        Assert.Equal(-3.0, r.Difference, 12);
        Assert.Equal(-3.674235, r.T!.Value, 6);
        Assert.Equal(4.0, r.DegreesOfFreedom!.Value, 9);
        Assert.Equal(0.021312, r.PValue!.Value, 5);
        Assert.False(r.Significant);
        Assert.Equal("not significant at 99 %", r.Verdict);
        Assert.True(WelchTest.Compare([1.0, 2, 3], [4.0, 5, 6], confidence: 0.95).Significant);
    }

    [Fact]
    public void Welch_ClearSeparation_IsSignificant()
    {
        WelchTestResult r = WelchTest.Compare([1.0, 2, 3, 4, 5], [11.0, 12, 13, 14, 15]);

        Assert.True(r.Significant);
        Assert.True(r.PValue < 0.001);
        Assert.Equal("significant at 99 %", r.Verdict);
    }

    [Fact]
    public void Welch_OneRepetition_SaysNotEnough()
    {
        WelchTestResult r = WelchTest.Compare([1.0], [2.0, 3.0]);

        Assert.Null(r.Significant);
        Assert.Null(r.PValue);
        Assert.Equal(WelchTest.NotEnoughRepetitions, r.Verdict);
    }
}
