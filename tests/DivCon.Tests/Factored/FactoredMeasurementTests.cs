using DivCon.Harness.Factored;
using DivCon.Harness.Programs;
using DivCon.Samples;

namespace DivCon.Tests.Factored;

[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class FactoredTimingCollection
{
    /// <summary>Tests that time real runs: not run beside other test classes, which would load the cores they measure.</summary>
    public const string Name = "Factored timing";
}

[Collection(FactoredTimingCollection.Name)]
public sealed class FactoredMeasurementTests
{
    private const double Tolerance = 1e-12;

    [Fact]
    public void Measure_PreparesFirst_WarmsUp_InterleavesKinds_AndVerifiesTheFirstResultOfEach()
    {
        var program = FakeFactoredProgram.Create("fake", hasElision: true);
        var source = new ScriptedMeasurementSource(ts: 2, te: 2.5, t1: 3, overhead: 0.25, idlePerExtraWorker: 0.1);

        FactoredMeasurement.Measure(program, source, new FactoredSettings([2, 1], Runs: 2, WarmupRuns: 1));

        Assert.Equal("prepare", program.Calls[0]);
        // Warm-up (T_s, elision, largest P), then per run: T_s, elision, P = 1, P = 2.
        Assert.Equal(["ts", "te", "p2", "ts", "te", "p1", "p2", "ts", "te", "p1", "p2"], source.Calls);
        Assert.Equal(3, program.Calls.Count(c => c == "verify"));
    }

    [Fact]
    public void Measure_WithoutElision_NeverAsksForIt_AndReportsNoElision()
    {
        var program = FakeFactoredProgram.Create("fake", hasElision: false);
        var source = new ScriptedMeasurementSource(ts: 2, te: 99, t1: 3, overhead: 0, idlePerExtraWorker: 0);

        FactoredProgramResult result = FactoredMeasurement.Measure(program, source, new FactoredSettings([1, 2], Runs: 1, WarmupRuns: 0));

        Assert.DoesNotContain("te", source.Calls);
        Assert.Null(result.Telision);
        Assert.All(result.Points, p => Assert.Null(p.Speedups.Elision));
    }

    [Fact]
    public void Measure_ComputesTheCurvesFromTheMeansOfTheScriptedRuns()
    {
        var program = FakeFactoredProgram.Create("fake", hasElision: true);
        // Run k at P takes 3/P + 0.25·(P − 1) + 0.5·k; idle 0.1·(P − 1).
        var source = new ScriptedMeasurementSource(ts: 2, te: 2.5, t1: 3, overhead: 0.25, idlePerExtraWorker: 0.1, drift: 0.5);

        FactoredProgramResult result = FactoredMeasurement.Measure(program, source, new FactoredSettings([1, 2, 4], Runs: 3, WarmupRuns: 0));

        // Means over k = 0, 1, 2: drift adds 0.5.
        Assert.Equal(3.5, result.T1, Tolerance);
        Assert.Equal(2, result.Ts, Tolerance);
        Assert.Equal(2.5, result.Telision!.Value, Tolerance);
        FactoredPoint four = result.Points.Single(p => p.P == 4);
        double tp = 0.75 + 0.75 + 0.5;
        Assert.Equal(tp, four.Tp, Tolerance);
        Assert.Equal(0.3, four.Ip, Tolerance);
        Assert.Equal(4 * tp - 0.3 - 3.5, four.Fp, Tolerance);
        Assert.Equal(4 * 2 / 3.5, four.Speedups.Maximal, Tolerance);
        Assert.Equal(4 * 2 / 3.8, four.Speedups.IdleSpecific, Tolerance);
        Assert.Equal(4 * 2 / (4 * tp - 0.3), four.Speedups.InflationSpecific, Tolerance);
        Assert.Equal(2 / tp, four.Speedups.Actual, Tolerance);
        Assert.Equal(4 * 2 / 2.5, four.Speedups.Elision!.Value, Tolerance);
        Assert.Equal(3, result.Samples.Parallel[4].Count);
    }

    [Theory]
    [InlineData(0, 1, 0, "WorkerCounts")]
    [InlineData(2, 0, 0, "settings.Runs")]
    [InlineData(2, 1, -1, "settings.WarmupRuns")]
    public void Measure_RejectsInvalidSettings(int workers, int runs, int warmup, string parameter)
    {
        var e = Assert.Throws<ArgumentOutOfRangeException>(() => FactoredMeasurement.Measure(FakeFactoredProgram.Create("f", false),
            new ScriptedMeasurementSource(1, 1, 1, 0, 0), new FactoredSettings([workers], runs, warmup)));

        Assert.Equal(parameter, e.ParamName);
    }

    // Must show 2: idle time is real. Nine tenths of the work is one serial task, so at P = 2 one worker idles for
    // most of the run; the scheduler's idle counters must show it, pulling the idle-time-specific curve below the
    // maximal one: ideally to T_1/(T_1 + 0.9·T_1) ≈ 0.53 of it; the test asks for less than 0.9 (I_2 > T_1/9), a
    // margin that also holds when other processes slow some runs down (seen at 0.76 on a heavily loaded machine).
    [Fact]
    public void RealScheduler_LongSequentialPhase_IdleSpecificSitsWellBelowMaximal_AtTwoWorkers()
    {
        var program = new SyntheticSpinProgram("serial-heavy", 20_000_000, tasks: 8, serialFraction: 0.9, seed: 3);
        using var source = new SchedulerMeasurementSource(TimeSpan.FromMinutes(1));

        // Up to three measurements: on a heavily loaded machine the one-worker runs can be held up outside the scheduler
        // (the continuation that queues the parallel chains waits for a thread) and show as much idle time as two
        // workers do. The accounting is right when one measurement shows it; broken accounting never does.
        string failure = "";
        for (int attempt = 0; attempt < 3; attempt++)
        {
            FactoredProgramResult result = FactoredMeasurement.Measure(program, source, new FactoredSettings([1, 2], Runs: 3, WarmupRuns: 0));
            FactoredPoint two = result.Points.Single(p => p.P == 2);
            FactoredPoint one = result.Points.Single(p => p.P == 1);
            Assert.Equal(2 * two.Tp, result.T1 + two.Ip + two.Fp, 1e-9);

            // The gap is idle time at P = 2, not something of the one-worker runs.
            if (two.Speedups.IdleSpecific < 0.9 * two.Speedups.Maximal && two.Ip > 2 * one.Ip)
            {
                return;
            }

            failure = $"idle-specific {two.Speedups.IdleSpecific} vs maximal {two.Speedups.Maximal}; I_2 = {two.Ip} s, I_1 = {one.Ip} s, T_1 = {result.T1} s";
        }

        Assert.Fail("In three measurements the idle-specific speedup at P = 2 never sat below 0.9 x the maximal with I_2 > 2 I_1: last " + failure);
    }

    [Fact]
    public void RealScheduler_EachWorkersBusyPlusIdle_EqualsTheWindow_AndRunIdleIsWithinTheCoresTime()
    {
        IDivConSample sample = SampleCatalog.Create("quicksort", ProblemSize.Small);
        var program = (ISkeletonProgram)DivCon.Cli.Programs.SampleWorkload.Of(sample);
        program.UseAutomaticGranularity(2);
        program.Initialize();
        using var source = new SchedulerMeasurementSource(TimeSpan.FromMinutes(1));

        ParallelRunSample run = source.MeasureParallel(program, 2, CancellationToken.None);
        program.Verify();

        var stats = source.LastStatistics!;
        Assert.Equal(2, stats.Workers.Count);
        foreach (var w in stats.Workers)
        {
            double sum = (w.BusyTime + w.IdleTime).TotalSeconds;
            Assert.True(Math.Abs(sum - stats.Elapsed.TotalSeconds) <= 0.01 * stats.Elapsed.TotalSeconds + 0.002,
                $"worker {w.Worker}: busy + idle = {sum} s, window = {stats.Elapsed.TotalSeconds} s");
        }

        Assert.InRange(run.IdleSeconds, 0, 2 * run.Seconds);
        Assert.True(stats.Elapsed.TotalSeconds >= run.Seconds);
    }

    [Theory]
    [InlineData(2, 1.0, 1.1, 0.5, 0.3)]   // 0.5 − 2·0.1
    [InlineData(2, 1.0, 1.0, 0.5, 0.5)]
    [InlineData(4, 1.0, 1.5, 1.0, 0.0)]   // more idle outside than measured: clamped to 0
    [InlineData(2, 1.0, 1.0, 5.0, 2.0)]   // cannot exceed P·T_P
    public void RunIdleSeconds_SubtractsTheIdleOutsideTheRun(int workers, double run, double window, double windowIdle, double expected)
    {
        Assert.Equal(expected, SchedulerMeasurementSource.RunIdleSeconds(workers, run, window, windowIdle), 1e-12);
    }

    [Fact]
    public void SchedulerSource_ElisionRunsWithGranularityEqualToProblemSize_AndRestoresIt()
    {
        IDivConSample sample = SampleCatalog.Create("mergesort", ProblemSize.Small);
        var program = (ISkeletonProgram)DivCon.Cli.Programs.SampleWorkload.Of(sample);
        program.UseAutomaticGranularity(2);
        program.Initialize();
        long granularity = sample.Granularity;
        Assert.True(granularity < sample.ProblemSize);
        using var source = new SchedulerMeasurementSource(TimeSpan.FromMinutes(1));
        var profiler = new DivCon.Skeletons.PhaseProfiler();
        sample.Profiler = profiler;

        Assert.True(source.MeasureElision(program, CancellationToken.None).Seconds > 0);
        program.Verify();

        Assert.Equal(1, profiler.TotalCount(DivCon.Skeletons.DivConPhase.Execute));
        Assert.Equal(0, profiler.TotalCount(DivCon.Skeletons.DivConPhase.Split));
        Assert.Equal(granularity, sample.Granularity);
    }
}
