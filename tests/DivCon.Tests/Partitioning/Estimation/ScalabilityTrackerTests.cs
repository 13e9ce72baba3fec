using DivCon.Partitioning;
using DivCon.Partitioning.Estimation;

namespace DivCon.Tests.Partitioning.Estimation;

/// <summary>The per-tick wiring shared by the scheduler and the simulator: sample construction, choice, probes.</summary>
public sealed class ScalabilityTrackerTests
{
    [Theory]
    // previous (core, idle, tasks), current (core, idle, tasks) → sample (core, idle, tasks)
    [InlineData(1.0, 0.2, 10, 1.2, 0.25, 30, 0.2, 0.05, 20)]
    [InlineData(0.0, 0.0, 0, 0.0, 0.0, 0, 0.0, 0.0, 0)]
    [InlineData(2.0, 1.0, 5, 1.9, 1.1, 4, 0.0, 0.0, 0)]   // a counter read a little behind: 0, never negative
    [InlineData(1.0, 0.0, 0, 1.1, 0.3, 3, 0.1, 0.1, 3)]   // idle never above core
    public void Sample_IsTheDifferenceOfTheCounters(
        double c0, double i0, long t0, double c1, double i1, long t1, double core, double idle, long tasks)
    {
        ScalabilitySample s = ScalabilityTracker.Sample(2, 0.1, new ProgramCounters(c0, i0, t0), new ProgramCounters(c1, i1, t1));
        Assert.Equal(2, s.AssignedCores);
        Assert.Equal(0.1, s.ElapsedSeconds);
        Assert.Equal(core, s.CoreSeconds, 12);
        Assert.Equal(idle, s.IdleSeconds, 12);
        Assert.Equal(tasks, s.TasksExecuted);
    }

    [Fact]
    public void FirstObservation_OnlyRecordsTheBaseline()
    {
        var tracker = new ScalabilityTracker(4);
        tracker.Observe(7, 2, 0.1, new ProgramCounters(100, 50, 1000));
        Assert.Equal(0, tracker.Estimator.ObservedTicks(7));
        tracker.Observe(7, 2, 0.1, new ProgramCounters(100.2, 50.02, 1100));
        Assert.Equal(1, tracker.Estimator.ObservedTicks(7));
    }

    [Fact]
    public void ProgramServedOnTwoCores_GetsAnOnlineEstimate_FromItsCounters()
    {
        // A program always on 2 of 4 cores, 10 % of its core time idle: s = u / ((P − 1)(1 − u)) = 0.1 / 0.9.
        var tracker = new ScalabilityTracker(4, new ScalabilityEstimatorOptions { ProbeFraction = 0 });
        Assert.Equal(ScalabilitySource.Default, tracker.Choose(1, null, null).Source);
        var counters = default(ProgramCounters);
        for (int tick = 0; tick <= 20; tick++)
        {
            tracker.Observe(1, 2, 0.1, counters);
            counters = new ProgramCounters(counters.CoreSeconds + 0.2, counters.IdleSeconds + 0.02, counters.TasksExecuted + 100);
        }

        ScalabilityChoice choice = tracker.Choose(1, null, null);
        double s = 0.1 / 0.9;
        Assert.Equal(ScalabilitySource.Online, choice.Source);
        Assert.Equal(4 / (1 + 3 * s), choice.Scalability, 6);
        Assert.NotNull(choice.Table);
        Assert.Equal(1, tracker.ChoiceChanges(1));
        Assert.Same(choice, tracker.Choose(1, null, null)); // unchanged estimate: the same object, so the mechanism sees no change
    }

    [Theory]
    [InlineData(-3)]
    [InlineData(0)]
    [InlineData(63)]
    [InlineData(5000)]
    [InlineData(int.MaxValue)]
    public void AnyProgramId_IsTrackedRemovedAndTrackedAgain(int id)
    {
        // Small ids sit in the tracker's array, others in its dictionary: each program keeps its own counters either
        // way, and a removed one starts again from nothing.
        var tracker = new ScalabilityTracker(4, new ScalabilityEstimatorOptions { ProbeFraction = 0 });
        int other = id == 0 ? 1 : 0;
        var counters = default(ProgramCounters);
        for (int tick = 0; tick <= 20; tick++)
        {
            tracker.Observe(id, 2, 0.1, counters);
            tracker.Observe(other, 2, 0.1, new ProgramCounters(counters.CoreSeconds, counters.CoreSeconds, 0));
            counters = new ProgramCounters(counters.CoreSeconds + 0.2, counters.IdleSeconds + 0.02, counters.TasksExecuted + 100);
        }

        Assert.Equal(ScalabilitySource.Online, tracker.Choose(id, null, null).Source);
        Assert.Equal(ScalabilitySource.Default, tracker.Choose(other, null, null).Source); // idle throughout: no data
        Assert.Equal(20, tracker.Estimator.ObservedTicks(id));
        tracker.Remove(id);
        Assert.Equal(0, tracker.Estimator.ObservedTicks(id));
        Assert.Equal(0, tracker.ChoiceChanges(id));
        tracker.Observe(id, 2, 0.1, counters); // the first observation again: only the baseline
        Assert.Equal(0, tracker.Estimator.ObservedTicks(id));
        Assert.Equal(ScalabilitySource.Default, tracker.Choose(id, null, null).Source);
    }

    [Fact]
    public void UserNumberOrTable_Wins_AndIsNeverProbed()
    {
        var tracker = new ScalabilityTracker(2, new ScalabilityEstimatorOptions { ProbeFraction = 0.5, ProbeTicks = 1, MinTicks = 2 });
        var table = new ScalabilityTable([(1, 1.0), (2, 1.5)]);
        var counters = default(ProgramCounters);
        for (int tick = 0; tick < 50; tick++)
        {
            foreach (int id in new[] { 1, 2, 3 })
            {
                tracker.Observe(id, 1, 0.1, counters);
            }

            counters = new ProgramCounters(counters.CoreSeconds + 0.1, counters.IdleSeconds, counters.TasksExecuted + 10);
            Assert.Equal(new ScalabilityChoice(3.0, null, ScalabilitySource.User), tracker.Choose(1, 3.0, null));
            Assert.Equal(new ScalabilityChoice(1.5, table, ScalabilitySource.User), tracker.Choose(2, null, table));
            tracker.Choose(3, null, null);
            var probes = new List<ScalabilityProbe>();
            tracker.CollectProbes([1, 2, 3], probes);
            Assert.DoesNotContain(probes, p => p.ProgramId is 1 or 2);
        }

        Assert.True(tracker.Estimator.ProbedTicks(3) > 0, "The program without a user scalability was probed.");
    }

    [Fact]
    public void Repartitioner_HonoursProbes_WithReasonProbe_ButNotOnAFixedAllocation()
    {
        var repartitioner = new Repartitioner(8);
        ProgramLoad[] loads = [new(0, 1, 10), new(1, 1, 10), new(2, 1, 10), new(3, 1, 10)];
        Allocation equal = repartitioner.Decide(new EqualSharesPolicy(), loads, null).Allocation;
        Assert.Equal([2, 2, 2, 2], equal.Counts);

        Allocation probed = repartitioner.Decide(new EqualSharesPolicy(), loads, equal, probes: [new ScalabilityProbe(1, 4)]).Allocation;
        Assert.Equal(4, probed.CoresOf(1));
        Assert.Equal(8, probed.Counts.Sum());
        Assert.All(probed.Counts, c => Assert.True(c >= 1, "Donors keep a core when there are more cores than programs."));
        Assert.Equal(2, Enumerable.Range(0, 8).Count(slot => probed.Reasons[slot] == AllocationReason.Probe));

        var fixedPolicy = new FixedAllocationPolicy(new Dictionary<int, int> { [0] = 2, [1] = 2, [2] = 2, [3] = 2 });
        Allocation kept = repartitioner.Decide(fixedPolicy, loads, equal, probes: [new ScalabilityProbe(1, 4)]).Allocation;
        Assert.Equal(2, kept.CoresOf(1));
    }
}
