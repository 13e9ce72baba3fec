using DivCon.Partitioning.Estimation;

namespace DivCon.Tests.Partitioning.Estimation;

/// <summary>
/// The sums a program's estimate is computed from are kept up to date as ticks arrive and recomputed from the core
/// counts only now and then (docs/online-scalability.md, "Cost"); recomputing them at every tick gives the same
/// estimates and probes, up to rounding, whatever the ticks: random core counts, unserved and idle ticks, probes
/// honoured, counts decaying out of the sums, weights rescaled.
/// </summary>
public sealed class IncrementalSumsTests
{
    public static TheoryData<int> Seeds => [1, 2, 3, 4, 5, 6, 7, 8];

    [Theory]
    [MemberData(nameof(Seeds))]
    public void KeptSums_GiveTheEstimatesOfRecomputedOnes_AtEveryTick(int seed)
    {
        var rng = new Random(seed);
        const int Cores = 16;
        double halfLife = seed % 3 == 0 ? double.PositiveInfinity : seed % 3 == 1 ? 6 : 60;
        var options = new ScalabilityEstimatorOptions { HalfLifeTicks = halfLife, ProbeFraction = 0.1 };
        double decay = double.IsPositiveInfinity(halfLife) ? 1 : Math.Pow(0.5, 1 / halfLife);
        var kept = new ProgramObservations(1, Cores, options, decay);
        var recomputed = new ProgramObservations(1, Cores, options, decay, recomputeEvery: 1);
        var program = new SyntheticProgram(0.02 + (0.2 * rng.NextDouble()), 0.01 * rng.NextDouble(), seed, tasks: 30 + rng.Next(300), speedNoise: 0.2, servedLoss: 0.05, stealIdle: 0.02);
        int usual = 1 + rng.Next(Cores);
        for (int t = 0; t < 3000; t++)
        {
            if (t % 200 == 0)
            {
                usual = 1 + rng.Next(Cores); // the policy moves it now and then
            }

            bool probing = kept.TryGetProbe(out ScalabilityProbe probe);
            Assert.Equal(recomputed.TryGetProbe(out ScalabilityProbe other), probing);
            Assert.Equal(other, probe);
            int cores = probing ? probe.Cores : rng.Next(10) == 0 ? 1 + rng.Next(Cores) : usual;
            double roll = rng.NextDouble();
            ScalabilitySample sample = roll < 0.05 ? new ScalabilitySample(cores, 0.1, 0, 0, 0)
                : roll < 0.1 ? new ScalabilitySample(cores, 0.1, cores * 0.1, cores * 0.1, 0)
                : program.Tick(cores, 0.1);
            kept.Observe(sample);
            recomputed.Observe(sample);
            AssertClose(recomputed.Estimate, kept.Estimate, t);
            Assert.True(Close(recomputed.SpeedupAt(Cores), kept.SpeedupAt(Cores)), $"tick {t}: speedup");
        }
    }

    private static void AssertClose(ScalabilityEstimate expected, ScalabilityEstimate actual, int tick)
    {
        Assert.Equal(expected.HasEstimate, actual.HasEstimate);
        Assert.Equal(expected.CurrentCores, actual.CurrentCores);
        Assert.Equal(expected.InflationSeparated, actual.InflationSeparated);
        Assert.Equal(expected.Allocations, actual.Allocations);
        // The confidence, 1 − error / MaxRelativeError in [0, 1], within 1e-12 absolute: near 0 the subtraction
        // makes a difference in the error's 15th digit a large relative one.
        (string Name, double Expected, double Actual, double Floor)[] values =
        [
            ("scalability", expected.Scalability, actual.Scalability, 1e-15),
            ("speedup at current", expected.SpeedupAtCurrent, actual.SpeedupAtCurrent, 1e-15),
            ("serial fraction", expected.SerialFraction, actual.SerialFraction, 1e-15),
            ("inflation", expected.InflationPerCore, actual.InflationPerCore, 1e-15),
            ("relative error", expected.RelativeError, actual.RelativeError, 1e-15),
            ("confidence", expected.Confidence, actual.Confidence, 1e-12),
            ("observations", expected.Observations, actual.Observations, 1e-15),
        ];
        foreach ((string name, double e, double a, double floor) in values)
        {
            Assert.True(Close(e, a, floor), $"tick {tick}: {name} {a:R}, recomputed at every tick {e:R}");
        }
    }

    // Within 1e-12 relative, or `floor` absolute (values near 0: an inflation or a serial fraction of 0).
    private static bool Close(double expected, double actual, double floor = 1e-15)
        => expected == actual || Math.Abs(expected - actual) <= Math.Max(1e-12 * Math.Max(Math.Abs(expected), Math.Abs(actual)), floor);
}
