using DivCon.Harness.Factored;

namespace DivCon.Tests.Factored;

public sealed class MultiprogramFactoredTests
{
    private const double Tolerance = 1e-12;

    [Fact]
    public void Compute_UsesCoreTimeHeldInPlaceOfPTimesTp_HandComputed()
    {
        // 10 s phase, 15 core-seconds held (1.5 cores on average), 3 of them idle; mean run 2 s; T_s 2.4, T_1 2.7, T_elision 2.5.
        var accounting = new ProgramCoreAccounting("p", 10, 15, 3, 2, 2.4, 2.7, 2.5);

        MultiprogramFactored result = MultiprogramFactored.Compute(accounting);

        Assert.Null(result.Reason);
        FactoredPoint point = Assert.IsType<FactoredPoint>(result.Point);
        Assert.Equal(1.5, point.P, Tolerance);
        Assert.Equal(2.0, point.Tp, Tolerance);
        Assert.Equal(0.6, point.Ip, Tolerance);          // 3/10 of the time idle, per 2 s run
        Assert.Equal(2.4, point.Wp, Tolerance);          // 1.5·2 − 0.6
        Assert.Equal(-0.3, point.Fp, Tolerance);         // 2.4 − 2.7
        Assert.Equal(point.P * point.Tp, 2.7 + point.Ip + point.Fp, Tolerance);
        Assert.Equal(1.5, point.Speedups.Linear, Tolerance);
        Assert.Equal(1.5 * 2.4 / 2.7, point.Speedups.Maximal, Tolerance);
        Assert.Equal(3.6 / 3.3, point.Speedups.IdleSpecific, Tolerance);
        Assert.Equal(3.6 / 2.4, point.Speedups.InflationSpecific, Tolerance);
        Assert.Equal(1.2, point.Speedups.Actual, Tolerance);
        Assert.Equal(3.6 / 2.5, point.Speedups.Elision!.Value, Tolerance);
        Assert.Same(accounting, result.Accounting);
    }

    [Theory]
    [InlineData(null, 1.0, 1.0, "no run")]
    [InlineData(1.0, null, 1.0, "T_s")]
    [InlineData(1.0, 1.0, null, "T_1")]
    public void Compute_MissingInput_GivesAReasonAndNoNumbers(double? meanRun, double? ts, double? t1, string reasonPart)
    {
        MultiprogramFactored result = MultiprogramFactored.Compute(new ProgramCoreAccounting("p", 10, 5, 1, meanRun, ts, t1, null));

        Assert.Null(result.Point);
        Assert.Contains(reasonPart, result.Reason);
    }

    [Fact]
    public void Compute_NoCoreTimeHeld_GivesAReason()
    {
        MultiprogramFactored result = MultiprogramFactored.Compute(new ProgramCoreAccounting("p", 10, 0, 0, 1, 1, 1, null));

        Assert.Null(result.Point);
        Assert.Contains("no core-time", result.Reason);
    }

    [Fact]
    public void Compute_RejectsImpossibleAccounting_ListingEveryProblem()
    {
        var e = Assert.Throws<ArgumentException>(() => MultiprogramFactored.Compute(new ProgramCoreAccounting("p", -1, 2, 3, 1, double.NaN, 1, null)));

        Assert.Contains("IntervalSeconds", e.Message);
        Assert.Contains("SequentialSeconds", e.Message);
        Assert.Contains("cannot exceed", e.Message);
    }
}
