using DivCon.Partitioning;

namespace DivCon.Tests.Partitioning;

public sealed class ScalabilityPolicyTests
{
    // cores, speedups, expected base (hand-computed: floors, then largest remainders, then at least one each)
    public static TheoryData<int, double[], int[]> HandCases => new()
    {
        // §5.3.2: shares 30.67 / 17.33 / 16.00 → floors 30/17/16 (63), the 64th to the largest remainder (0.67).
        { 64, [23, 13, 12], [31, 17, 16] },
        // Figure 5.20's base: shares 13.75 / 9.45 / 8.80 → floors 13/9/8 (30), remainders .75/.45/.80 → 3rd, 1st.
        { 32, [15.18, 10.43, 9.71], [14, 9, 9] },
        // One program takes everything.
        { 7, [2.5], [7] },
        // Equal programs, odd cores: remainder tie between equal scalabilities → lower index.
        { 5, [1, 1], [3, 2] },
        // Remainder tie between different scalabilities: 6 cores, s = 1, 2, 3 → shares 1, 2, 3 (no remainder).
        { 6, [1, 2, 3], [1, 2, 3] },
        // Remainder tie, higher scalability first: 4 cores, s = 1, 1, 2 → shares 1, 1, 2 → exact.
        // 3 cores, s = 1, 1, 2 → shares .75/.75/1.5 → floors 0/0/1, remainders .75/.75/.5 → programs 0, 1.
        { 3, [1, 1, 2], [1, 1, 1] },
        // At least one each: 4 cores, s = 100, 1, 1 → shares 3.92/.04/.04 → floors 3/0/0, remainder → program 0 (4/0/0);
        // programs 1 and 2 each take one core from program 0 → 2/1/1.
        { 4, [100, 1, 1], [2, 1, 1] },
        // More programs than cores: one core each to the most scalable (ties lower index), the rest none.
        { 2, [1, 5, 3, 5], [0, 1, 0, 1] },
        { 1, [2, 2, 2], [1, 0, 0] },
    };

    [Theory]
    [MemberData(nameof(HandCases))]
    public void HandComputedBase(int cores, double[] speedups, int[] expected)
    {
        ScalabilityPlan plan = ScalabilityPolicy.Compute(cores, speedups);

        Assert.Equal(expected, plan.Base);
        Assert.Equal(cores, plan.Base.Sum());
    }

    [Fact]
    public void Section532Example_ShowsSharesFloorsAndRemainderReceiver()
    {
        ScalabilityPlan plan = ScalabilityPolicy.Compute(64, [23, 13, 12]);

        Assert.Equal([30.67, 17.33, 16.00], plan.Shares.Select(x => Math.Round(x, 2)));
        Assert.Equal([30, 17, 16], plan.Floors);
        Assert.Equal([0], plan.RemainderReceivers);
        Assert.Empty(plan.MinimumTransfers);
    }

    [Fact]
    public void AtLeastOneEach_RecordsTheTransfers()
    {
        ScalabilityPlan plan = ScalabilityPolicy.Compute(4, [100, 1, 1]);

        Assert.Equal([new CoreTransfer(0, 1), new CoreTransfer(0, 2)], plan.MinimumTransfers);
    }

    [Fact]
    public void Decide_PlacesContiguousRangesWithTheShareReason()
    {
        var input = new PartitioningInput(64, [new ProgramLoad(1, 23, 0), new ProgramLoad(2, 13, 0), new ProgramLoad(3, 12, 0)]);

        Allocation allocation = PartitioningKit.Decided(new ScalabilityPolicy(), input);

        Assert.Equal([31, 17, 16], allocation.Counts);
        Assert.Equal(1, allocation.WorkerOwners[30]);
        Assert.Equal(2, allocation.WorkerOwners[31]);
        Assert.Equal(2, allocation.WorkerOwners[47]);
        Assert.Equal(3, allocation.WorkerOwners[48]);
        Assert.All(allocation.Reasons, r => Assert.Equal(AllocationReason.ScalabilityShare, r));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-3)]
    public void Compute_NonPositiveCores_Throws(int cores) =>
        Assert.Throws<ArgumentOutOfRangeException>(() => ScalabilityPolicy.Compute(cores, [1.0]));

    [Theory]
    [InlineData(0.0)]
    [InlineData(-1.0)]
    [InlineData(double.NaN)]
    [InlineData(double.PositiveInfinity)]
    public void Compute_BadScalability_Throws(double s)
    {
        var e = Assert.Throws<ArgumentOutOfRangeException>(() => ScalabilityPolicy.Compute(4, [1.0, s]));
        Assert.Contains("positive finite", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void PoliciesByName()
    {
        Assert.All(PartitioningPolicies.Names, n => Assert.Equal(n, PartitioningPolicies.Create(n).Name));
        var e = Assert.Throws<ArgumentException>(() => PartitioningPolicies.Create("fastest"));
        Assert.Contains("task-availability", e.Message, StringComparison.Ordinal);
    }
}
