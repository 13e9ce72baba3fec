using DivCon.Partitioning;
using DivCon.Partitioning.Estimation;

namespace DivCon.Tests.Partitioning.Estimation;

public sealed class OnlineScalabilityEstimatorTests
{
    private const double Tick = 0.1;

    // s = u / ((P − 1)(1 − u)); the model's idle fraction u = (P − 1)s / (1 + (P − 1)s).
    [Theory]
    [InlineData(0.0, 4, 0.0)]
    [InlineData(0.5, 2, 1.0)] // one core idle half the time on two cores: all serial
    [InlineData(0.2, 2, 0.25)] // 0.2 / (1 · 0.8)
    [InlineData(0.75, 16, 0.2)] // 0.75 / (15 · 0.25)
    [InlineData(0.3, 1, 0.0)] // one core: idle says nothing about parallelism
    [InlineData(1.0, 8, 1.0)]
    public void SerialFraction_InvertsTheIdleFraction(double idleFraction, double cores, double expected)
        => Assert.Equal(expected, ProgramObservations.SerialFraction(idleFraction, cores), 12);

    // S(P) = P / ((1 + (P − 1)s)(1 + φ(P − 1))).
    [Theory]
    [InlineData(1, 0.3, 0.1, 1.0)]
    [InlineData(64, 0.0, 0.0, 64.0)]
    [InlineData(64, 0.05, 0.0, 15.421686746987952)] // 64 / 4.15
    [InlineData(16, 0.0, 0.01, 13.913043478260869)] // 16 / 1.15
    [InlineData(8, 0.1, 0.02, 4.127966976264191)] // 8 / (1.7 · 1.14)
    public void Model_IsTheFactoredSpeedup(double cores, double serial, double inflation, double expected)
        => Assert.Equal(expected, ProgramObservations.Model(cores, serial, inflation), 9);

    [Fact]
    public void NoObservations_NoEstimate()
    {
        var estimator = new OnlineScalabilityEstimator(8);

        ScalabilityEstimate e = estimator.GetEstimate(7);

        Assert.False(e.HasEstimate);
        Assert.Equal(0, e.Confidence);
        Assert.Equal(1, estimator.SpeedupAt(7, 8));
        Assert.Null(estimator.CreateTable(7));
        Assert.False(estimator.TryGetProbe(7, out _));
    }

    [Fact]
    public void OneCoreOnly_NoEstimate_AndAProbeToTwoCores()
    {
        var estimator = new OnlineScalabilityEstimator(4);
        var program = new SyntheticProgram(0.1, 0, seed: 1);
        bool probed = false;
        ScalabilityProbe probe = default;
        for (int t = 0; t < 200 && !probed; t++)
        {
            estimator.Observe(1, program.Tick(1, Tick));
            probed = estimator.TryGetProbe(1, out probe);
            Assert.False(estimator.GetEstimate(1).HasEstimate);
        }

        Assert.True(probed);
        Assert.Equal(new ScalabilityProbe(1, 2), probe);
    }

    [Fact]
    public void NoiseFree_OneAllocation_IdleTimeSpecificSpeedup_CappedConfidence()
    {
        // Serial 5 %, no inflation, always on 16 of 64 cores, probing off: the idle fraction alone gives S(64) exactly
        // up to the within-run sampling, but inflation cannot be told apart, so the confidence stays at the cap.
        var options = new ScalabilityEstimatorOptions { ProbeFraction = 0, HalfLifeTicks = double.PositiveInfinity };
        var estimator = new OnlineScalabilityEstimator(64, options);
        var program = new SyntheticProgram(0.05, 0, seed: 2);
        for (int t = 0; t < 2000; t++)
        {
            estimator.Observe(1, program.Tick(16, Tick));
        }

        ScalabilityEstimate e = estimator.GetEstimate(1);
        Assert.True(e.HasEstimate);
        Assert.False(e.InflationSeparated);
        Assert.Equal(16, e.CurrentCores);
        Assert.Equal(1, e.Allocations);
        Assert.InRange(e.Scalability / program.SpeedupAt(64), 0.97, 1.03);
        Assert.InRange(e.SpeedupAtCurrent / program.SpeedupAt(16), 0.99, 1.01);
        Assert.Equal(options.UnseparatedConfidenceCap, e.Confidence);
        Assert.Equal(0, estimator.ProbedTicks(1));
    }

    [Fact]
    public void NoiseFree_TwoAllocations_SeparatesInflation()
    {
        // Serial 2 %, inflation 1 % per core: half the ticks on 8 cores, half on 32.
        var estimator = new OnlineScalabilityEstimator(64, new ScalabilityEstimatorOptions { ProbeFraction = 0, HalfLifeTicks = double.PositiveInfinity });
        var program = new SyntheticProgram(0.02, 0.01, seed: 3);
        for (int t = 0; t < 4000; t++)
        {
            estimator.Observe(1, program.Tick((t / 50) % 2 == 0 ? 8 : 32, Tick));
        }

        ScalabilityEstimate e = estimator.GetEstimate(1);
        Assert.True(e.InflationSeparated);
        Assert.Equal(2, e.Allocations);
        Assert.InRange(e.InflationPerCore, 0.009, 0.011);
        Assert.InRange(e.Scalability / program.SpeedupAt(64), 0.97, 1.03);
        Assert.InRange(estimator.SpeedupAt(1, 8) / program.SpeedupAt(8), 0.98, 1.02);
        Assert.True(e.Confidence > 0.8, $"confidence {e.Confidence}");
    }

    public static TheoryData<double, double, double> Profiles => new()
    {
        { 0.0, 0.0, 0.0 },
        { 0.01, 0.0, 0.02 },
        { 0.05, 0.005, 0.02 },
        { 0.2, 0.0, 0.01 },
        { 0.02, 0.02, 0.03 },
    };

    [Theory]
    [MemberData(nameof(Profiles))]
    public void RealisticNoise_WithProbing_Within15Percent(double serial, double inflation, double stealIdle)
    {
        // One program on 16 of 64 cores (the policy's share), probes honoured, noise of every kind: after 3000 ticks
        // (five minutes at 100 ms) the estimate at 64 cores is within 15 % of the truth, for three seeds.
        for (int seed = 1; seed <= 3; seed++)
        {
            var estimator = new OnlineScalabilityEstimator(64);
            var program = new SyntheticProgram(serial, inflation, seed, speedNoise: 0.1, servedLoss: 0.05, stealIdle: stealIdle);
            for (int t = 0; t < 3000; t++)
            {
                int cores = estimator.TryGetProbe(1, out ScalabilityProbe probe) ? probe.Cores : 16;
                estimator.Observe(1, program.Tick(cores, Tick));
            }

            ScalabilityEstimate e = estimator.GetEstimate(1);
            double truth = program.SpeedupAt(64);
            Assert.True(e.HasEstimate);
            Assert.True(Math.Abs((e.Scalability / truth) - 1) <= 0.15, $"seed {seed}: estimate {e.Scalability:F2}, truth {truth:F2}");
            Assert.True(e.InflationSeparated, $"seed {seed}");
            Assert.InRange(estimator.ProbedTicks(1), 1, 0.05 * estimator.ObservedTicks(1));
        }
    }

    [Theory]
    [InlineData(true, 200, 800, 3200)] // probes honoured: from the first separated estimate on
    [InlineData(false, 25, 100, 400)] // one allocation, cap lifted: the idle part alone
    public void Confidence_RisesWithData(bool probing, int first, int second, int third)
    {
        // Mean over seeds of the confidence at three checkpoints, without forgetting: it rises, and the relative
        // error falls.
        int[] checkpoints = [first, second, third];
        var confidence = new double[checkpoints.Length];
        var error = new double[checkpoints.Length];
        const int Seeds = 6;
        var options = probing
            ? new ScalabilityEstimatorOptions { HalfLifeTicks = double.PositiveInfinity }
            : new ScalabilityEstimatorOptions { HalfLifeTicks = double.PositiveInfinity, ProbeFraction = 0, UnseparatedConfidenceCap = 1 };
        for (int seed = 1; seed <= Seeds; seed++)
        {
            var estimator = new OnlineScalabilityEstimator(16, options);
            var program = new SyntheticProgram(0.05, 0.005, seed, speedNoise: 0.1, servedLoss: 0.05, stealIdle: 0.02);
            int c = 0;
            for (int t = 1; t <= checkpoints[^1]; t++)
            {
                int cores = estimator.TryGetProbe(1, out ScalabilityProbe probe) ? probe.Cores : 4;
                estimator.Observe(1, program.Tick(cores, Tick));
                if (t == checkpoints[c])
                {
                    ScalabilityEstimate e = estimator.GetEstimate(1);
                    Assert.Equal(probing, e.InflationSeparated);
                    confidence[c] += e.Confidence / Seeds;
                    error[c] += Math.Min(e.RelativeError, 10) / Seeds;
                    c++;
                }
            }
        }

        Assert.True(confidence[0] < confidence[1] && confidence[1] < confidence[2], string.Join(", ", confidence));
        Assert.True(error[0] > error[1] && error[1] > error[2], string.Join(", ", error));
    }

    [Fact]
    public void Probing_IsBoundedByTheFraction_AtEveryTick()
    {
        // Random allocations and random statistics (seeded): probe ticks never exceed ProbeFraction of the ticks,
        // every probe asks for 1..cores cores, and probing off means no probe ever.
        foreach (double fraction in new[] { 0.0, 0.02, 0.05, 0.2 })
        {
            var options = new ScalabilityEstimatorOptions { ProbeFraction = fraction, ProbeTicks = 3 };
            var estimator = new OnlineScalabilityEstimator(8, options);
            var rng = new Random(42);
            var programs = Enumerable.Range(0, 4).Select(i => new SyntheticProgram(0.1 * i, 0.01 * i, i, speedNoise: 0.2)).ToArray();
            for (int t = 0; t < 3000; t++)
            {
                for (int p = 0; p < programs.Length; p++)
                {
                    int cores = estimator.TryGetProbe(p, out ScalabilityProbe probe) ? probe.Cores : rng.Next(0, 3);
                    Assert.InRange(cores, 0, 8);
                    estimator.Observe(p, programs[p].Tick(cores, Tick));
                    Assert.True(estimator.ProbedTicks(p) <= (fraction * estimator.ObservedTicks(p)) + 1e-9);
                }
            }

            if (fraction == 0)
            {
                Assert.All(Enumerable.Range(0, 4), p => Assert.Equal(0, estimator.ProbedTicks(p)));
            }
            else
            {
                Assert.Contains(Enumerable.Range(0, 4), p => estimator.ProbedTicks(p) > 0);
            }
        }
    }

    [Fact]
    public void Probing_Stops_OnceConfident()
    {
        // Noise-free program with probes honoured: once the estimate is separated and confident, no more probes
        // are asked for (within the half-life, which is infinite here).
        var estimator = new OnlineScalabilityEstimator(32, new ScalabilityEstimatorOptions { HalfLifeTicks = double.PositiveInfinity, ProbeFraction = 0.1 });
        var program = new SyntheticProgram(0.03, 0.01, seed: 5);
        long probedAtHalf = 0;
        for (int t = 0; t < 4000; t++)
        {
            int cores = estimator.TryGetProbe(1, out ScalabilityProbe probe) ? probe.Cores : 8;
            estimator.Observe(1, program.Tick(cores, Tick));
            if (t == 1999)
            {
                probedAtHalf = estimator.ProbedTicks(1);
                Assert.True(estimator.GetEstimate(1).Confidence >= estimator.Options.ProbeUntilConfidence);
            }
        }

        Assert.True(probedAtHalf > 0);
        Assert.Equal(probedAtHalf, estimator.ProbedTicks(1));
    }

    [Fact]
    public void Forgetting_FollowsAPhaseChange()
    {
        // 1000 ticks as a 30 %-serial program, then 1000 as a 2 %-serial one, on 8 of 16 cores, half-life 100 ticks:
        // the estimate ends near the new program's speedup, far from the old one's.
        var options = new ScalabilityEstimatorOptions { HalfLifeTicks = 100, ProbeFraction = 0 };
        var estimator = new OnlineScalabilityEstimator(16, options);
        var before = new SyntheticProgram(0.3, 0, seed: 6);
        var after = new SyntheticProgram(0.02, 0, seed: 7);
        for (int t = 0; t < 1000; t++)
        {
            estimator.Observe(1, before.Tick(8, Tick));
        }

        Assert.InRange(estimator.GetEstimate(1).Scalability / before.SpeedupAt(16), 0.9, 1.1);
        for (int t = 0; t < 1000; t++)
        {
            estimator.Observe(1, after.Tick(8, Tick));
        }

        Assert.InRange(estimator.GetEstimate(1).Scalability / after.SpeedupAt(16), 0.9, 1.1);
    }

    [Fact]
    public void ShortHalfLife_RescalesWithoutOverflow()
    {
        // Half-life of 2 ticks: the new tick's weight doubles every two ticks and is rescaled many times over 5000
        // ticks; old core counts fade to nothing and the estimate stays that of the recent data.
        var estimator = new OnlineScalabilityEstimator(16, new ScalabilityEstimatorOptions { HalfLifeTicks = 2, MinTicks = 2, ProbeFraction = 0 });
        var program = new SyntheticProgram(0.05, 0, seed: 12);
        for (int t = 0; t < 5000; t++)
        {
            estimator.Observe(1, program.Tick(t < 2500 ? 4 : 8, Tick));
        }

        ScalabilityEstimate e = estimator.GetEstimate(1);
        Assert.True(e.HasEstimate);
        Assert.True(double.IsFinite(e.Scalability) && e.Scalability > 1);
        Assert.Equal(8, e.CurrentCores);
        Assert.InRange(e.Observations, 2, 4); // Σ 2^(−k/2) = 3.41
    }

    [Fact]
    public void TicksWithoutService_OrWithoutDemand_AreNotData()
    {
        var estimator = new OnlineScalabilityEstimator(4, new ScalabilityEstimatorOptions { ProbeFraction = 0 });
        var program = new SyntheticProgram(0.1, 0, seed: 8);
        for (int t = 0; t < 100; t++)
        {
            estimator.Observe(1, program.Tick(4, Tick));
        }

        ScalabilityEstimate before = estimator.GetEstimate(1);
        estimator.Observe(1, new ScalabilitySample(4, Tick, 0, 0, 0)); // not served: not even a tick
        Assert.Equal(100, estimator.ObservedTicks(1));
        estimator.Observe(1, new ScalabilitySample(4, Tick, 0.4, 0.4, 0)); // served, all idle, nothing ran: no demand

        ScalabilityEstimate after = estimator.GetEstimate(1);
        Assert.Equal(101, estimator.ObservedTicks(1));
        Assert.Equal(before.Scalability, after.Scalability, 12);
    }

    [Fact]
    public void BadSamplesAndOptions_Throw()
    {
        var estimator = new OnlineScalabilityEstimator(4);
        Assert.Throws<ArgumentOutOfRangeException>(() => estimator.Observe(1, new ScalabilitySample(1, -1, 0, 0, 0)));
        Assert.Throws<ArgumentOutOfRangeException>(() => estimator.Observe(1, new ScalabilitySample(1, 0.1, double.NaN, 0, 0)));
        Assert.Throws<ArgumentOutOfRangeException>(() => estimator.Observe(1, new ScalabilitySample(1, 0.1, 0.1, 0, -1)));
        Assert.Throws<ArgumentOutOfRangeException>(() => new OnlineScalabilityEstimator(0));
        var bad = new ScalabilityEstimatorOptions { HalfLifeTicks = 0, ProbeFraction = 1, ProbeTicks = 0 };
        ArgumentException e = Assert.Throws<ArgumentException>(() => new OnlineScalabilityEstimator(4, bad));
        Assert.Equal(3, bad.Validate().Count);
        Assert.Contains("HalfLifeTicks", e.Message);
        Assert.Contains("ProbeFraction", e.Message);
        Assert.Contains("ProbeTicks", e.Message);
    }

    [Fact]
    public void CreateTable_MatchesSpeedupAt_AndRemoveForgets()
    {
        var estimator = new OnlineScalabilityEstimator(12, new ScalabilityEstimatorOptions { ProbeFraction = 0 });
        var program = new SyntheticProgram(0.1, 0, seed: 9);
        for (int t = 0; t < 300; t++)
        {
            estimator.Observe(3, program.Tick(6, Tick));
        }

        ScalabilityTable table = estimator.CreateTable(3)!;
        Assert.Equal([1, 2, 4, 8, 12], table.Cores);
        Assert.All(table.Cores, c => Assert.Equal(estimator.SpeedupAt(3, c), table.SpeedupAt(c), 12));
        Assert.Equal(estimator.GetEstimate(3).Scalability, table.SpeedupAt(12), 12);
        Assert.Equal(1, estimator.ProgramCount);
        Assert.True(estimator.Remove(3));
        Assert.False(estimator.GetEstimate(3).HasEstimate);
        Assert.Equal(0, estimator.ProgramCount);
    }

    [Fact]
    public void Deterministic_SameSamplesSameEstimates()
    {
        ScalabilityEstimate Run()
        {
            var estimator = new OnlineScalabilityEstimator(16);
            var program = new SyntheticProgram(0.05, 0.01, seed: 10, speedNoise: 0.1, servedLoss: 0.05, stealIdle: 0.02);
            for (int t = 0; t < 500; t++)
            {
                int cores = estimator.TryGetProbe(1, out ScalabilityProbe probe) ? probe.Cores : 4;
                estimator.Observe(1, program.Tick(cores, Tick));
            }

            return estimator.GetEstimate(1);
        }

        // Two estimators fed the same seeded program reach the same estimate (no clock, no shared random state).
        ScalabilityEstimate first = Run();
        ScalabilityEstimate second = Run();
        Assert.Equal(first, second);
    }

    [Fact]
    public void Observe_AllocatesNothing_OnceProgramsAreKnown()
    {
        // 64 programs, the per-tick path: observe, read the estimate, ask for a probe.
        var estimator = new OnlineScalabilityEstimator(64);
        var samples = new ScalabilitySample[64];
        var rng = new Random(11);
        for (int p = 0; p < 64; p++)
        {
            int k = 1 + rng.Next(0, 4);
            samples[p] = new ScalabilitySample(k, Tick, Tick * k, Tick * 0.1 * rng.NextDouble(), rng.Next(10, 100));
            estimator.Observe(p, samples[p]);
        }

        // The least of three passes of 200 ticks: the runtime's own work (a method's tier-up, on-stack replacement of
        // the loop) is charged to the thread now and then (6,320 B once, in a full test run); the estimator's is not.
        double sink = 0;
        long allocated = long.MaxValue;
        for (int pass = 0; pass < 3; pass++)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int t = 0; t < 200; t++)
            {
                for (int p = 0; p < 64; p++)
                {
                    estimator.Observe(p, samples[(p + t) % 64]);
                    sink += estimator.GetEstimate(p).Scalability;
                    if (estimator.TryGetProbe(p, out ScalabilityProbe probe))
                    {
                        sink += probe.Cores;
                    }
                }
            }

            allocated = Math.Min(allocated, GC.GetAllocatedBytesForCurrentThread() - before);
        }

        Assert.True(sink > 0);
        Assert.Equal(0, allocated);
    }
}
