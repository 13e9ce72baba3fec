using DivCon.Harness.Factored;
using DivCon.Harness.Throttling;
using DivCon.Metrics.Throttling;
using DivCon.Scheduling;

namespace DivCon.Tests.Budget;

/// <summary>
/// Throttling is not inflation (issue 21): the samples, their summaries, the windows that take them, and how the
/// factored decomposition keeps throttled time out of F_P; values computed by hand.
/// </summary>
public sealed class ThrottlingAccountingTests
{
    private const double Tolerance = 1e-12;
    private const string Source = "/sys/fs/cgroup/cpu/app/cpu.stat";

    [Fact]
    public void A_sample_is_the_difference_of_two_readings_in_seconds()
    {
        var before = new CpuThrottling(100, 10, TimeSpan.FromMilliseconds(250), Source);
        var after = new CpuThrottling(140, 22, TimeSpan.FromMilliseconds(1_000), Source);

        ThrottlingSample sample = ThrottlingSample.From(after - before);

        Assert.Equal(new ThrottlingSample(40, 12, 0.75), sample);
        Assert.True(sample.WasThrottled);
        Assert.False(new ThrottlingSample(40, 0, 0).WasThrottled);
    }

    [Fact]
    public void A_summary_needs_every_run_measured_and_averages_per_run()
    {
        Assert.Null(ThrottlingSummary.Of(null));
        Assert.Null(ThrottlingSummary.Of([]));
        Assert.Null(ThrottlingSummary.Of([new ThrottlingSample(10, 1, 0.1), null]));

        ThrottlingSummary? s = ThrottlingSummary.Of([new ThrottlingSample(10, 0, 0), new ThrottlingSample(20, 4, 0.3), new ThrottlingSample(30, 2, 0.15)]);

        Assert.NotNull(s);
        Assert.Equal(3, s.Runs);
        Assert.Equal(2, s.ThrottledRuns);
        Assert.Equal(0.15, s.MeanThrottledSeconds, Tolerance);
        Assert.Equal(2, s.MeanThrottledPeriods, Tolerance);
        Assert.Equal(20, s.MeanPeriods, Tolerance);
        Assert.True(s.WasThrottled);
    }

    [Fact]
    public void A_window_counts_what_happened_between_its_readings()
    {
        var counter = new CountingThrottling();

        Func<ThrottlingSample?> closeWindow = ThrottlingWindow.Open(counter.Read);

        Assert.Equal(new ThrottlingSample(10, 1, 0.001), closeWindow());
        Assert.Equal(2, counter.Reads);
    }

    [Fact]
    public void A_window_without_a_cgroup_or_with_readings_that_do_not_subtract_is_not_measured()
    {
        var later = new CpuThrottling(200, 20, TimeSpan.FromSeconds(2), Source);
        var earlier = new CpuThrottling(100, 10, TimeSpan.FromSeconds(1), Source);

        Assert.Null(ThrottlingWindow.Open(() => null)());
        Assert.Null(Sequence(earlier, null)());                                                        // the group vanished
        Assert.Null(Sequence(later, earlier)());                                                       // recreated: counters went backwards
        Assert.Null(Sequence(earlier, later with { Source = "/sys/fs/cgroup/cpu/other/cpu.stat" })()); // another group
    }

    // Hand-computed: W = P·T_P − I_P − Θ_P, F = W − (T_1 − Θ_1); inflation-specific = P·T_s / W.
    [Theory]
    //          P  Ts   T1   TP   IP    Θ_P  Θ_1  | W     F      inflation-specific
    [InlineData(2, 2.0, 2.2, 1.5, 0.2, 0.6, 0.1, 2.2, 0.1, 4.0 / 2.2)]
    [InlineData(1, 1.0, 1.5, 1.5, 0.05, 0.5, 0.5, 0.95, -0.05, 1.0 / 0.95)] // P = 1: F_1 = −I_1 whatever the throttling
    [InlineData(4, 3.0, 4.0, 2.0, 1.5, 0.0, 0.0, 6.5, 2.5, 12.0 / 6.5)]     // nothing throttled: the plain decomposition
    public void Throttled_time_is_its_own_term_and_stays_out_of_the_inflation(
        double p, double ts, double t1, double tp, double ip, double theta, double theta1, double wp, double fp, double inflation)
    {
        FactoredPoint point = FactoredAnalysis.Point(p, ts, t1, tp, ip, null, theta, theta1);

        Assert.Equal(wp, point.Wp, Tolerance);
        Assert.Equal(fp, point.Fp, Tolerance);
        Assert.Equal(inflation, point.Speedups.InflationSpecific, Tolerance);
        Assert.Equal(p * ts / (t1 + ip), point.Speedups.IdleSpecific, Tolerance); // the other curves are the measured times'
        Assert.Equal(p * tp, (t1 - theta1) + point.Ip + theta + point.Fp, 1e-9);
    }

    [Fact]
    public void Two_workers_under_a_one_cpu_quota_show_throttling_not_inflation()
    {
        // The wrong diagnosis: T_1 = 1 s; two workers under a 1-CPU quota take 1 s too, each held back half the
        // time (Θ_2 = 2 × 0.5 s). Left in, that would be F_2 = 1 s of "work inflation"; as its own term, F_2 = 0.
        var samples = new FactoredSamples([1.0], [], new Dictionary<int, IReadOnlyList<ParallelRunSample>>
        {
            [1] = [new(1.0, 0.0, Throttling: new ThrottlingSample(10, 0, 0.0))],
            [2] = [new(1.0, 0.0, Throttling: new ThrottlingSample(10, 5, 1.0)), new(1.0, 0.0, Throttling: new ThrottlingSample(10, 5, 1.0))],
        });

        FactoredProgramResult result = FactoredAnalysis.Analyze("montecarlopi", samples);

        FactoredPoint two = result.Points[1];
        Assert.Equal(0.0, two.Fp, Tolerance);
        Assert.Equal(1.0, two.Wp, Tolerance);
        Assert.Equal(new ThrottlingSummary(2, 2, 1.0, 5, 10), two.Throttling);
        Assert.Equal(new ThrottlingSummary(1, 0, 0, 0, 10), result.Points[0].Throttling);
        Assert.Equal(1.0, FactoredAnalysis.Point(2, 1.0, 1.0, 1.0, 0.0, null).Fp, Tolerance); // what it would say without the term
    }

    [Fact]
    public void A_point_with_a_run_that_was_not_measured_has_no_throttling_and_subtracts_none()
    {
        var samples = new FactoredSamples([1.0], [], new Dictionary<int, IReadOnlyList<ParallelRunSample>>
        {
            [1] = [new(1.0, 0.0)],
            [2] = [new(1.0, 0.0, Throttling: new ThrottlingSample(10, 5, 1.0)), new(1.0, 0.0)],
        });

        FactoredProgramResult result = FactoredAnalysis.Analyze("p", samples);

        Assert.All(result.Points, x => Assert.Null(x.Throttling));
        Assert.Equal(1.0, result.Points[1].Fp, Tolerance);
    }

    [Fact]
    public void Throttling_cannot_be_negative_or_infinite()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => FactoredAnalysis.Point(2, 1, 1, 1, 0, null, -0.1));
        Assert.Throws<ArgumentOutOfRangeException>(() => FactoredAnalysis.Point(2, 1, 1, 1, 0, null, 0, double.PositiveInfinity));
    }

    private static Func<ThrottlingSample?> Sequence(params CpuThrottling?[] readings)
    {
        int next = 0;
        return ThrottlingWindow.Open(() => readings[next++]);
    }
}
