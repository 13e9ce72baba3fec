using DivCon.Harness.Factored;
using DivCon.Metrics.Throttling;
using DivCon.Tests.Factored;

namespace DivCon.Tests.Budget;

/// <summary>
/// The real factored source reads the throttling counters around exactly the runs it times (one window per timed run,
/// none around the untimed work between them) and sizes its schedulers by the budget it was given.
/// </summary>
[Collection(FactoredTimingCollection.Name)]
public sealed class ThrottledMeasurementTests
{
    [Fact]
    public void Every_timed_run_carries_the_throttling_of_its_own_window()
    {
        var counter = new CountingThrottling();
        using var source = new SchedulerMeasurementSource(budget: BudgetFakes.FourProcessors, readThrottling: counter.Read);
        var program = FakeFactoredProgram.Create("fake", hasElision: true);

        FactoredProgramResult result = FactoredMeasurement.Measure(program, source, new FactoredSettings([1, 2], Runs: 2, WarmupRuns: 1));

        var one = new ThrottlingSample(10, 1, 0.001);
        Assert.Equal([one, one], result.Samples.SequentialThrottling!);
        Assert.Equal([one, one], result.Samples.ElisionThrottling!);
        Assert.All(result.Samples.Parallel.Values.SelectMany(r => r), r => Assert.Equal(one, r.Throttling));
        Assert.All(result.Points, p => Assert.Equal(new ThrottlingSummary(2, 2, 0.001, 1, 10), p.Throttling));
        // Warm-up (T_s, elision, P = 2) and two rounds of T_s, elision, P = 1, P = 2: two readings each.
        Assert.Equal(2 * (3 + (2 * 4)), counter.Reads);
        Assert.Same(BudgetFakes.FourProcessors, source.Budget);
    }

    [Fact]
    public void Without_a_cgroup_nothing_is_recorded_as_measured()
    {
        using var source = new SchedulerMeasurementSource(budget: BudgetFakes.FourProcessors, readThrottling: () => null);

        FactoredProgramResult result = FactoredMeasurement.Measure(FakeFactoredProgram.Create("fake", hasElision: true), source, new FactoredSettings([1, 2], Runs: 1, WarmupRuns: 0));

        Assert.Null(result.Samples.SequentialThrottling);
        Assert.Null(result.Samples.ElisionThrottling);
        Assert.All(result.Points, p => Assert.Null(p.Throttling));
    }
}
