using DivCon.Simulation;

namespace DivCon.Tests.Simulation;

public sealed class SimRandomTests
{
    [Fact]
    public void SplitMix64_MatchesTheReferenceSequence()
    {
        // Reference values of Vigna's splitmix64.c from state 0.
        ulong state = 0;
        Assert.Equal(0xE220A8397B1DCDAFUL, SimRandom.SplitMix64(ref state));
        Assert.Equal(0x6E789E6AA1B965F4UL, SimRandom.SplitMix64(ref state));
        Assert.Equal(0x06C45D188009454FUL, SimRandom.SplitMix64(ref state));
    }

    [Fact]
    public void SameSeed_SameSequence_DifferentSeed_DifferentSequence()
    {
        var a = new SimRandom(42);
        var b = new SimRandom(42);
        var c = new SimRandom(43);
        ulong[] xa = Enumerable.Range(0, 100).Select(_ => a.NextUInt64()).ToArray();
        ulong[] xb = Enumerable.Range(0, 100).Select(_ => b.NextUInt64()).ToArray();
        ulong[] xc = Enumerable.Range(0, 100).Select(_ => c.NextUInt64()).ToArray();
        Assert.Equal(xa, xb);
        Assert.NotEqual(xa, xc);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(7)]
    [InlineData(1000)]
    public void Next_StaysInRangeAndHitsEveryValue(int bound)
    {
        var r = new SimRandom(7);
        var seen = new int[bound];
        int draws = Math.Max(1000, bound * 50);
        for (int i = 0; i < draws; i++)
        {
            int v = r.Next(bound);
            Assert.InRange(v, 0, bound - 1);
            seen[v]++;
        }

        Assert.All(seen, count => Assert.True(count > 0));
    }

    [Fact]
    public void NextDouble_IsInUnitIntervalWithMeanNearHalf()
    {
        var r = new SimRandom(9);
        double[] xs = Enumerable.Range(0, 20000).Select(_ => r.NextDouble()).ToArray();
        Assert.All(xs, x => Assert.InRange(x, 0.0, 1.0 - double.Epsilon));
        Assert.InRange(xs.Average(), 0.49, 0.51);
    }
}
