using DivCon.Partitioning.Estimation;

namespace DivCon.Tests.Partitioning.Estimation;

/// <summary>
/// Work inflation on two cores, seen through the ticks of a real cyclic run (<see cref="RecordedSumOfSquaresTicks"/>:
/// sum of squares rotating with four other programs on this 2-core machine). Inflation is injected into the recorded
/// ticks the way it would show: a task that costs f times the busy time completes f times less often in a tick of the
/// same length, so the tick's finished tasks are divided by f and its times kept. Inflation on two cores must lower the
/// estimate to about the speedup divided by f; a slowdown on every allocation (a loaded machine, a co-runner slowing
/// each core alike) or on one core only must not lower it (docs/online-scalability.md, "What the targets need").
/// </summary>
public sealed class InflationOnRecordedTicksTests
{
    private const int ProgramId = 0;

    // The estimate after every recorded tick, with each tick's finished tasks divided by `slowdown(assigned cores)`
    // (the fractions carried from tick to tick, so that no task is lost to rounding).
    private static ScalabilityEstimate Replay(Func<int, double> slowdown)
    {
        var estimator = new OnlineScalabilityEstimator(2);
        double carried = 0;
        foreach ((int assigned, double elapsed, double core, double idle, long tasks) in RecordedSumOfSquaresTicks.Ticks)
        {
            carried += tasks / slowdown(assigned);
            long finished = (long)Math.Floor(carried);
            carried -= finished;
            estimator.Observe(ProgramId, new ScalabilitySample(assigned, elapsed, core, idle, finished));
        }

        return estimator.GetEstimate(ProgramId);
    }

    [Fact]
    public void AsRecorded_NoInflationSeen()
    {
        // Busy time per task on two cores (probes) is no higher than on one core in these ticks (6.7 against 6.9 ms):
        // the estimate is the idle-specific speedup.
        ScalabilityEstimate e = Replay(static _ => 1);

        Assert.True(e.HasEstimate);
        Assert.True(e.InflationSeparated);
        Assert.Equal(0, e.InflationPerCore);
        Assert.InRange(e.Scalability, 1.7, 1.9);
    }

    // 1.27: sum of squares' own inflation on two cores in `divcon factored` (README, "Factored speedups").
    [Theory]
    [InlineData(1.27)]
    [InlineData(1.5)]
    [InlineData(2.0)]
    public void InflationOnTwoCores_LowersTheEstimateToTheInflatedSpeedup(double inflation)
    {
        ScalabilityEstimate recorded = Replay(static _ => 1);

        ScalabilityEstimate inflated = Replay(cores => cores == 2 ? inflation : 1);

        // The speedup with inflation is the recorded one divided by it (the idle fraction is unchanged). Within 15 %:
        // a fit on a few dozen noisy probe ticks is shrunk towards no inflation by its signal-to-noise ratio. (With
        // the fit's x taken from the served cores less one, −0.6 for the one-core ticks here, the same data gave
        // 1.19, 1.26 and 1.43.)
        Assert.True(inflated.InflationSeparated);
        Assert.InRange(inflated.Scalability * inflation / recorded.Scalability, 0.95, 1.15);
        Assert.InRange(inflated.SerialFraction, recorded.SerialFraction - 1e-12, recorded.SerialFraction + 1e-12);
    }

    [Theory]
    [InlineData(1.27)]
    [InlineData(2.0)]
    public void SlowdownOnEveryAllocation_DoesNotLowerTheEstimate(double slowdown)
    {
        ScalabilityEstimate recorded = Replay(static _ => 1);

        ScalabilityEstimate slowed = Replay(_ => slowdown);

        Assert.Equal(recorded.Scalability, slowed.Scalability, 1e-2 * recorded.Scalability);
        Assert.Equal(0, slowed.InflationPerCore);
    }

    [Fact]
    public void SlowdownOnOneCoreOnly_DoesNotLowerTheEstimate()
    {
        // A co-runner on the other core slowing the program's one-core ticks: faster per task on two cores is no
        // inflation (a negative slope counts as none), and no reason to lower the estimate.
        ScalabilityEstimate recorded = Replay(static _ => 1);

        ScalabilityEstimate slowed = Replay(static cores => cores <= 1 ? 1.3 : 1);

        Assert.Equal(0, slowed.InflationPerCore);
        Assert.True(slowed.Scalability >= recorded.Scalability * (1 - 1e-12));
    }

    [Fact]
    public void OneWorkerPartOfTheTick_IsOneWorker()
    {
        // A program on one core that the worker reaches only half-way through each tick (served 0.5 core) runs its tasks
        // one at a time: on two cores, served fully, each task costs 1.4 times as much. The inflation per added core is
        // 0.4, not the 0.24 that x = served cores less one gives (−0.5 and 1): x is the workers running at once, at
        // least one.
        var estimator = new OnlineScalabilityEstimator(2, new ScalabilityEstimatorOptions { ProbeFraction = 0 });
        const double Tick = 0.1, Busy = 0.001;
        for (int t = 0; t < 400; t++)
        {
            bool two = t % 4 == 0;
            double core = two ? 2 * Tick : 0.5 * Tick;
            double perTask = two ? 1.4 * Busy : Busy;

            // Steady idle of 2 % on two cores, none on one; task counts a little uneven so that the fit has noise.
            double idle = two ? 0.02 * core : 0;
            long tasks = (long)Math.Round((core - idle) / perTask) + (t % 3) - 1;
            estimator.Observe(ProgramId, new ScalabilitySample(two ? 2 : 1, Tick, core, idle, tasks));
        }

        ScalabilityEstimate e = estimator.GetEstimate(ProgramId);

        Assert.True(e.InflationSeparated);
        Assert.InRange(e.InflationPerCore, 0.38, 0.42);
    }
}
