using DivCon.Harness.Factored;

namespace DivCon.Tests.Factored;

public sealed class FactoredAnalysisTests
{
    private const double Tolerance = 1e-12;

    // Hand-computed: W = P·T_P − I_P, F = W − T_1, curves as in seed 001 §2.3 and seed 000 §2.8.
    [Theory]
    //          P  Ts   T1   TP   IP   Te   | W    F    maximal      idle           inflation     actual       elision
    [InlineData(2, 8.0, 10.0, 6.0, 2.0, 9.0, 10.0, 0.0, 1.6, 16.0 / 12, 1.6, 8.0 / 6, 16.0 / 9)]
    [InlineData(4, 3.0, 4.0, 2.0, 1.5, 3.5, 6.5, 2.5, 3.0, 12.0 / 5.5, 12.0 / 6.5, 1.5, 12.0 / 3.5)]
    [InlineData(1, 1.0, 1.25, 1.3, 0.05, 1.1, 1.25, 0.0, 0.8, 1.0 / 1.3, 0.8, 1.0 / 1.3, 1.0 / 1.1)]
    public void Point_MatchesHandComputedValues(double p, double ts, double t1, double tp, double ip, double te,
        double wp, double fp, double maximal, double idle, double inflation, double actual, double elision)
    {
        FactoredPoint point = FactoredAnalysis.Point(p, ts, t1, tp, ip, te);

        Assert.Equal(wp, point.Wp, Tolerance);
        Assert.Equal(fp, point.Fp, Tolerance);
        Assert.Equal(p, point.Speedups.Linear, Tolerance);
        Assert.Equal(maximal, point.Speedups.Maximal, Tolerance);
        Assert.Equal(idle, point.Speedups.IdleSpecific, Tolerance);
        Assert.Equal(inflation, point.Speedups.InflationSpecific, Tolerance);
        Assert.Equal(actual, point.Speedups.Actual, Tolerance);
        Assert.Equal(elision, point.Speedups.Elision!.Value, Tolerance);
    }

    [Fact]
    public void Identity_PTimesTp_EqualsT1PlusIpPlusFp_OnRandomInputs()
    {
        var random = new Random(7);
        for (int i = 0; i < 1000; i++)
        {
            int p = random.Next(1, 257);
            double t1 = 0.01 + random.NextDouble() * 10;
            double tp = 0.01 + random.NextDouble() * 10;
            double ip = random.NextDouble() * p * tp;
            FactoredPoint point = FactoredAnalysis.Point(p, 0.5 + random.NextDouble(), t1, tp, ip, null);

            Assert.Equal(p * tp, t1 + point.Ip + point.Fp, 1e-9 * p * tp);
            Assert.Equal(p * tp, point.Wp + point.Ip, 1e-9 * p * tp);
            // Inflation-specific is P·T_s/(T_1 + F_P) (its definition) computed as P·T_s/(P·T_P − I_P).
            double ts = point.Speedups.Actual * tp;
            if (point.Wp > 0)
            {
                Assert.Equal(p * ts / (t1 + point.Fp), point.Speedups.InflationSpecific, 1e-9 * point.Speedups.InflationSpecific);
            }

            Assert.Null(point.Speedups.Elision);
        }
    }

    [Fact]
    public void Analyze_UsesRatiosOfMeans_NotMeansOfRatios()
    {
        // T_s = [2, 2]; T_2 runs of 1 s and 3 s; T_1 runs of 2 s; I_2 of 0 and 2 s.
        var samples = new FactoredSamples(
            [2.0, 2.0],
            [],
            new Dictionary<int, IReadOnlyList<ParallelRunSample>>
            {
                [1] = [new(2.0, 0.0), new(2.0, 0.0)],
                [2] = [new(1.0, 0.0), new(3.0, 2.0)],
            });

        FactoredProgramResult result = FactoredAnalysis.Analyze("crafted", samples);
        FactoredPoint two = result.Points.Single(x => x.P == 2);

        // Ratio of means: 2 / mean(1, 3) = 1. Mean of ratios would be (2/1 + 2/3) / 2 = 4/3.
        Assert.Equal(1.0, two.Speedups.Actual, Tolerance);
        Assert.NotEqual((2.0 / 1 + 2.0 / 3) / 2, two.Speedups.Actual, 1e-6);
        // Idle-specific: 2·2 / (2 + mean(0, 2)) = 4/3; per-run mean would be (4/2 + 4/4) / 2 = 3/2.
        Assert.Equal(4.0 / 3, two.Speedups.IdleSpecific, Tolerance);
        Assert.NotEqual(1.5, two.Speedups.IdleSpecific, 1e-6);
        // Inflation-specific: 2·2 / (2·2 − 1) = 4/3; per-run mean would be (4/2 + 4/4) / 2 = 3/2.
        Assert.Equal(4.0 / 3, two.Speedups.InflationSpecific, Tolerance);
        Assert.Equal(2.0, result.T1, Tolerance);
        Assert.Equal(2.0, result.Ts, Tolerance);
        Assert.Null(result.Telision);
        Assert.Equal([1.0, 2.0], result.Points.Select(x => x.P));
    }

    [Fact]
    public void Analyze_T1IsTheMeanOfTheOneWorkerRuns_AndElisionTheMeanOfItsRuns()
    {
        var samples = new FactoredSamples(
            [1.0, 2.0, 3.0],
            [2.0, 4.0],
            new Dictionary<int, IReadOnlyList<ParallelRunSample>>
            {
                [2] = [new(2.0, 0.5)],
                [1] = [new(3.0, 0.0), new(5.0, 0.2)],
            });

        FactoredProgramResult result = FactoredAnalysis.Analyze("p", samples);

        Assert.Equal(2.0, result.Ts, Tolerance);
        Assert.Equal(4.0, result.T1, Tolerance);
        Assert.Equal(3.0, result.Telision!.Value, Tolerance);
        FactoredPoint one = result.Points[0];
        Assert.Equal(1, one.P);
        Assert.Equal(0.1, one.Ip, Tolerance);
        Assert.Equal(-0.1, one.Fp, Tolerance); // F_1 = T_1 − I_1 − T_1
        Assert.Equal(2.0 * 2 / 3, result.Points[1].Speedups.Elision!.Value, Tolerance);
    }

    [Fact]
    public void Analyze_RejectsMissingSamples()
    {
        var noOne = new Dictionary<int, IReadOnlyList<ParallelRunSample>> { [2] = [new(1, 0)] };
        var one = new Dictionary<int, IReadOnlyList<ParallelRunSample>> { [1] = [new(1, 0)] };

        Assert.Contains("P = 1", Assert.Throws<ArgumentException>(() => FactoredAnalysis.Analyze("x", new FactoredSamples([1.0], [], noOne))).Message);
        Assert.Contains("T_s", Assert.Throws<ArgumentException>(() => FactoredAnalysis.Analyze("x", new FactoredSamples([], [], one))).Message);
        Assert.Throws<ArgumentException>(() => FactoredAnalysis.Analyze("x", new FactoredSamples([double.NaN], [], one)));
    }

    [Theory]
    [InlineData(0, 1, 1, 1, 0)]
    [InlineData(2, 0, 1, 1, 0)]
    [InlineData(2, 1, -1, 1, 0)]
    [InlineData(2, 1, 1, double.PositiveInfinity, 0)]
    [InlineData(2, 1, 1, 1, -0.1)]
    [InlineData(2, 1, 1, 1, double.NaN)]
    public void Point_RejectsInvalidTimes(double p, double ts, double t1, double tp, double ip)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => FactoredAnalysis.Point(p, ts, t1, tp, ip, null));
    }

    [Fact]
    public void Point_IdleLongerThanTheCoresTime_GivesNaNInflationSpecific_NotANegativeSpeedup()
    {
        FactoredPoint point = FactoredAnalysis.Point(2, 1, 1, 1, 2.5, null);

        Assert.True(double.IsNaN(point.Speedups.InflationSpecific));
        Assert.Equal(-0.5, point.Wp, Tolerance);
    }

    [Fact]
    public void Intervals_TwoRounds_HandComputed()
    {
        // Round 0: T_s 2, T_1 2.2, T_2 1.25 (I 0.2); round 1: T_s 2.2, T_1 2.4, T_2 1.5 (I 0.4). A resample of two rounds is
        // round 0 twice, round 1 twice, or one of each (whose ratios of means lie between the two): with 10 000 resamples
        // the 0.5 % and 99.5 % quantiles are the one-round values. actual: 2/1.25 = 1.6 and 2.2/1.5 = 1.466667;
        // F_2 = 2·T_2 − I − T_1: 2.5 − 0.2 − 2.2 = 0.1 and 3 − 0.4 − 2.4 = 0.2.
        var samples = new FactoredSamples([2.0, 2.2], [],
            new Dictionary<int, IReadOnlyList<ParallelRunSample>> { [1] = [new(2.2, 0), new(2.4, 0)], [2] = [new(1.25, 0.2), new(1.5, 0.4)] });

        FactoredPoint two = FactoredAnalysis.Analyze("x", samples).Points[1];

        FactoredIntervals ci = two.Ci99!;
        Assert.Equal(2, ci.Rounds);
        Assert.Equal(2.2 / 1.5, ci.Actual!.Value.Lower, 12);
        Assert.Equal(1.6, ci.Actual!.Value.Upper, 12);
        Assert.Equal(0.1, ci.Fp!.Value.Lower, 12);
        Assert.Equal(0.2, ci.Fp!.Value.Upper, 12);
        Assert.Equal(1.25, ci.Tp!.Value.Lower, 12);
        Assert.Equal(1.5, ci.Tp!.Value.Upper, 12);
        Assert.InRange(two.Speedups.Actual, ci.Actual!.Value.Lower, ci.Actual.Value.Upper);
        Assert.Null(ci.Elision);
        Assert.Null(ci.Get("linear"));
    }

    [Fact]
    public void Intervals_NeedRoundsOfEveryKind()
    {
        var oneRound = new FactoredSamples([2.0], [], new Dictionary<int, IReadOnlyList<ParallelRunSample>> { [1] = [new(2.2, 0)], [2] = [new(1.25, 0.2)] });
        var uneven = new FactoredSamples([2.0, 2.1], [], new Dictionary<int, IReadOnlyList<ParallelRunSample>> { [1] = [new(2.2, 0)], [2] = [new(1.25, 0.2), new(1.3, 0.2)] });

        Assert.All(FactoredAnalysis.Analyze("x", oneRound).Points, p => Assert.Null(p.Ci99));
        Assert.All(FactoredAnalysis.Analyze("x", uneven).Points, p => Assert.Null(p.Ci99));
    }
}
