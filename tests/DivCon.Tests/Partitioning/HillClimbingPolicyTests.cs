using DivCon.Partitioning;

namespace DivCon.Tests.Partitioning;

public sealed class HillClimbingPolicyTests
{
    // Program A peaks at 4 cores and slows down beyond; program B scales linearly.
    private static readonly ScalabilityTable s_peaked = new([(1, 1.0), (2, 1.9), (4, 3.5), (6, 2.5), (8, 2.0)]);
    private static readonly ScalabilityTable s_linear = new([(1, 1.0), (2, 2.0), (4, 4.0), (8, 8.0)]);

    private static ProgramLoad[] NonMonotone() =>
    [
        new ProgramLoad(1, 2.0, 0, s_peaked),
        new ProgramLoad(2, 8.0, 0, s_linear),
    ];

    [Fact]
    public void NonMonotoneTable_BeatsProportionalShares()
    {
        // Proportional: shares 8·2/10 = 1.6 and 6.4 → floors 1/6, remainder .6 > .4 → 2/6.
        // Predicted NTT = S(8)/S(c): A 2.0/1.9, B 8/6 → ANTT (1.052632 + 1.333333)/2 = 1.192982.
        // Move B→A: A(3) interpolates 2.7, B(5) = 5 → (0.740741 + 1.6)/2 = 1.170370, lower.
        // Next move B→A: A(4) = 3.5, B(4) = 4 → (0.571429 + 2)/2 = 1.285714, higher: stop. A→B: A(2)/B(6) is the start.
        HillClimbingPlan plan = HillClimbingPolicy.Compute(8, NonMonotone());

        Assert.Equal([2, 6], plan.Start.Base);
        Assert.Equal(1.192982, plan.StartAntt, 6);
        Assert.Equal([new HillClimbingMove(1, 0, plan.FinalAntt)], plan.Moves);
        Assert.Equal([3, 5], plan.Final);
        Assert.Equal(1.170370, plan.FinalAntt, 6);
        Assert.True(plan.FinalAntt < plan.StartAntt);
    }

    [Fact]
    public void Decide_MarksTheCoresTheSearchAdded()
    {
        var input = new PartitioningInput(8, NonMonotone());

        Allocation a = PartitioningKit.Decided(new HillClimbingPolicy(), input);

        Assert.Equal([3, 5], a.CountsByIndex(input));
        Assert.Equal([0, 0, 0, 1, 1, 1, 1, 1], a.OwnerIndices(input));
        Assert.Equal(
            [AllocationReason.ScalabilityShare, AllocationReason.ScalabilityShare, AllocationReason.HillClimbing, .. Enumerable.Repeat(AllocationReason.ScalabilityShare, 5)],
            a.Reasons);
        Assert.Empty(a.Validate(input));
    }

    [Fact]
    public void PeakedProgramAlone_AgainstAFlatOne_ClimbsToThePeak()
    {
        // A peaks at 4 of 8; C is flat (speedup 1 everywhere: extra cores are useless to it).
        var flat = new ScalabilityTable([(1, 1.0), (8, 1.0)]);
        ProgramLoad[] programs = [new(1, 2.0, 0, s_peaked), new(2, 1.0, 0, flat)];

        HillClimbingPlan plan = HillClimbingPolicy.Compute(8, programs);

        // Start 5/3 (shares 5.33/2.67, remainders .33/.67 → C). A's NTT falls towards 4 cores: 2/3 at 4 (S = 3.5)
        // beats 2/3.0 at 5 (interpolated 3.0); C's NTT is 1 whatever it holds.
        Assert.Equal([5, 3], plan.Start.Base);
        Assert.Equal(4, plan.Final[0]);
        Assert.Equal(4, plan.Final[1]);
    }

    // Model without a table: Amdahl fitted to s at N. cores, s, c, expected NTT.
    [Theory]
    [InlineData(8, 8.0, 4, 2.0)]       // f = 1: linear, N/c
    [InlineData(8, 8.0, 8, 1.0)]
    [InlineData(8, 1.0, 2, 1.0)]       // f = 0: serial, no cores help
    [InlineData(4, 2.0, 1, 2.0)]       // f = (1 - 1/2)/(1 - 1/4) = 2/3: S(1) = 1, S(4) = 2
    [InlineData(4, 2.0, 2, 1.3333333333)] // S(2) = 1/(1/3 + 1/3) = 1.5 → 2/1.5
    [InlineData(1, 5.0, 1, 1.0)]
    public void PredictedNtt_WithoutATable_IsAmdahlFittedToTheScalability(int cores, double s, int c, double expected) =>
        Assert.Equal(expected, HillClimbingPolicy.PredictedNtt(new ProgramLoad(1, s, 0), c, cores), 8);

    [Fact]
    public void PredictedNtt_ZeroCores_IsInfinite() =>
        Assert.Equal(double.PositiveInfinity, HillClimbingPolicy.PredictedNtt(new ProgramLoad(1, 2, 0), 0, 4));

    [Fact]
    public void EdgeCases_NoProgramsOneProgramFewerCoresThanPrograms()
    {
        Assert.Empty(HillClimbingPolicy.Compute(4, []).Final);
        Assert.Equal([4], HillClimbingPolicy.Compute(4, [new ProgramLoad(1, 3, 0, s_peaked)]).Final);

        ProgramLoad[] three = [new(1, 1, 0), new(2, 3, 0), new(3, 2, 0)];
        HillClimbingPlan plan = HillClimbingPolicy.Compute(2, three);
        Assert.Equal([0, 1, 1], plan.Final);
        Assert.Empty(plan.Moves);
        Assert.Equal(double.PositiveInfinity, plan.FinalAntt);
    }
}
