using DivCon.Harness.Open;

namespace DivCon.Tests.Open;

/// <summary>The open workload's numbers from raw times, computed by hand.</summary>
public sealed class OpenAnalysisTests
{
    private static readonly OpenClassInfo s_short = new("short", OpenMix.Latency, "", 1, AloneMs: 10, OneWorkerMs: 20, Scalability: 2, [10], [20]);
    private static readonly OpenClassInfo s_long = new("long", OpenMix.Throughput, "", 1, AloneMs: 100, OneWorkerMs: 150, Scalability: 1.5, [100], [150]);

    private static OpenRepetition Repetition(int r, double shortFactor) => new(r,
        [new(0, "short"), new(0.1, "long"), new(0.2, "short")],
        [
            new OpenRun("a", ElapsedSeconds: 2, CpuSeconds: 2, Cores: 2, MaxLagMs: 0, [10 * shortFactor, 200, 30 * shortFactor]),
            new OpenRun("b", ElapsedSeconds: 1.5, CpuSeconds: 3, Cores: 2, MaxLagMs: 0, [20, 100, 40]),
        ]);

    [Fact]
    public void Slowdowns_quantiles_throughput_and_utilization_are_the_hand_computed_values()
    {
        OpenRepetition r = Repetition(0, 1);
        Assert.Equal([1.0, 3.0], OpenAnalysis.Slowdowns(r, r.Runs[0], s_short));
        Assert.Equal([2.0], OpenAnalysis.Slowdowns(r, r.Runs[0], s_long));
        Assert.Equal(2.0, OpenAnalysis.Quantile([1.0, 3.0], 0.5), 12);
        Assert.Equal(2.96, OpenAnalysis.Quantile([1.0, 3.0], 0.98), 12); // R7: 1 + 0.98 · (3 − 1)
        Assert.True(double.IsNaN(OpenAnalysis.Quantile([], 0.5)));
        Assert.Equal(1.5, OpenAnalysis.Throughput(r.Runs[0]), 12);        // 3 jobs / 2 s
        Assert.Equal(0.5, OpenAnalysis.Utilization(r.Runs[0]), 12);       // 2 s CPU / (2 cores · 2 s)
        Assert.Equal(1.0, OpenAnalysis.Utilization(r.Runs[1]), 12);
    }

    [Fact]
    public void The_summary_averages_the_repetitions_and_the_comparison_pairs_them()
    {
        OpenRepetition[] reps = [Repetition(0, 1), Repetition(1, 2), Repetition(2, 4)];
        var summary = OpenAnalysis.Summarize([s_short, s_long], ["a", "b"], reps);
        OpenClassSummary shortA = summary[0].Classes[0];
        Assert.Equal(6, shortA.Jobs);
        // Median short slowdown of scheme a per repetition: 2, 4, 8.
        Assert.Equal(14 / 3.0, shortA.P50.Mean, 12);
        Assert.Equal(3, shortA.P50.Count);
        Assert.NotNull(shortA.P50.Ci99);
        Assert.Equal(1.5, summary[0].Throughput.Mean, 12);

        var comparisons = OpenAnalysis.Compare([s_short, s_long], ["a", "b"], "b", reps);
        Assert.Equal(["p99 slowdown short", "p99 slowdown long", "throughput"], comparisons.Select(c => c.Metric));
        Assert.All(comparisons, c => Assert.Equal(("a", "b", 3), (c.Scheme, c.Baseline, c.Ratio.Pairs)));
        // Throughput a / b = 1.5 / 2 in every repetition: no spread, p = 0, Holm over one scheme leaves it.
        OpenComparison throughput = comparisons[2];
        Assert.Equal(0.75, throughput.Ratio.Ratio, 12);
        Assert.Equal(0, throughput.PHolm);
    }
}
