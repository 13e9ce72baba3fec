using DivCon.Partitioning.Estimation;

namespace DivCon.Tests.Partitioning.Estimation;

public sealed class ProbeAllocationTests
{
    private static readonly int[] s_ids = [10, 11, 12, 13];

    [Fact]
    public void Up_TakesFromTheLargestUnprobed_HigherIndexOnTies()
    {
        // [4,4,4,4], program 10 to 8: take from 13 (4, tie → higher index), 12, 11, then 13 again (all at 3).
        int[] result = ProbeAllocation.Apply(s_ids, [4, 4, 4, 4], [new ScalabilityProbe(10, 8)]);
        Assert.Equal([8, 3, 3, 2], result);
    }

    [Fact]
    public void Down_GivesToTheSmallestUnprobed_LowerIndexOnTies()
    {
        // [8,4,2,2], program 10 to 4: give to 12 (2, tie → lower), 13, 12 (3 vs 3 → lower), 13.
        int[] result = ProbeAllocation.Apply(s_ids, [8, 4, 2, 2], [new ScalabilityProbe(10, 4)]);
        Assert.Equal([4, 4, 4, 4], result);
    }

    [Fact]
    public void NoDonor_KeepsWhatItCan_UnlessMinimumIsZero()
    {
        Assert.Equal([1, 1], ProbeAllocation.Apply([1, 2], [1, 1], [new ScalabilityProbe(1, 2)]));
        Assert.Equal([2, 0], ProbeAllocation.Apply([1, 2], [1, 1], [new ScalabilityProbe(1, 2)], minimumCores: 0));
    }

    [Fact]
    public void SecondProbe_NeverUndoesTheFirst_AndUnknownIdsAreIgnored()
    {
        int[] result = ProbeAllocation.Apply(
            s_ids, [4, 4, 4, 4], [new ScalabilityProbe(10, 8), new ScalabilityProbe(99, 3), new ScalabilityProbe(11, 6), new ScalabilityProbe(10, 1)]);

        // After 10 → 8: [8,3,3,2]; 11 → 6 can take only from 12 (3 → 1) and 13 (2 → 1): [8,6,1,1].
        Assert.Equal([8, 6, 1, 1], result);
    }

    [Fact]
    public void Property_TotalKept_ProbedGetsCloser_OthersKeepTheMinimum()
    {
        var rng = new Random(3);
        for (int round = 0; round < 500; round++)
        {
            int m = rng.Next(1, 7);
            int[] ids = Enumerable.Range(0, m).ToArray();
            int[] counts = Enumerable.Range(0, m).Select(_ => rng.Next(1, 9)).ToArray();
            var probe = new ScalabilityProbe(rng.Next(0, m), rng.Next(1, 20));
            int[] result = ProbeAllocation.Apply(ids, counts, [probe]);

            Assert.Equal(counts.Sum(), result.Sum());
            Assert.True(Math.Abs(result[probe.ProgramId] - probe.Cores) <= Math.Abs(counts[probe.ProgramId] - probe.Cores));
            Assert.All(result, c => Assert.True(c >= 1));
        }
    }

    [Fact]
    public void BadInput_Throws()
    {
        Assert.Throws<ArgumentException>(() => ProbeAllocation.Apply([1, 2], [1], []));
        Assert.Throws<ArgumentException>(() => ProbeAllocation.Apply([1], [-1], []));
        Assert.Throws<ArgumentOutOfRangeException>(() => ProbeAllocation.Apply([1], [1], [], minimumCores: 2));
    }
}
