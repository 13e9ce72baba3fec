using DivCon.Partitioning;

namespace DivCon.Tests.Partitioning;

public sealed class IdleLendingTests
{
    // scalabilities, serving workers, available tasks, lender, expected borrower
    public static TheoryData<double[], int[], int[], int, int> Cases => new()
    {
        // Figure 5.20's final state: program 2 (index 1) has no task; of 0 and 2, both with tasks, the lower score
        // serving/s: 18/15.18 = 1.186 vs 12/9.71 = 1.236 → program 0.
        { [15.18, 10.43, 9.71], [18, 2, 12], [3, 0, 5], 1, 0 },
        // Same, but program 0 has no task waiting: program 2.
        { [15.18, 10.43, 9.71], [18, 2, 12], [0, 0, 5], 1, 2 },
        // Nobody has a task: stay idle.
        { [1, 2, 3], [1, 1, 1], [0, 0, 0], 0, -1 },
        // Only the lender has tasks (it should not be idle then, but the rule never lends to oneself).
        { [1, 2], [1, 1], [0, 4], 1, -1 },
        // Score tie 2/2 = 1/1: higher scalability first.
        { [1, 2, 2], [0, 1, 2], [0, 9, 9], 0, 1 },
        { [5, 1, 2], [0, 1, 2], [0, 9, 9], 0, 2 },
        // Full tie: lower index.
        { [3, 2, 2], [0, 1, 1], [0, 9, 9], 0, 1 },
        // A program served by no worker has score 0 and comes first.
        { [9, 9, 0.5], [4, 4, 0], [0, 9, 1], 0, 2 },
        // A worker with no program (-1) may be lent to anyone.
        { [1, 1], [1, 2], [1, 1], -1, 0 },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void ChooseBorrower_LowestScoreAmongProgramsWithTasks(double[] s, int[] serving, int[] tasks, int lender, int expected)
    {
        Assert.Equal(expected, IdleLending.ChooseBorrower(Input(s, serving, tasks, lender)));
        Assert.Equal(expected, new IdleLendingPolicy().ChooseBorrower(Input(s, serving, tasks, lender)));
    }

    [Fact]
    public void SuccessiveLoans_SpreadByScore()
    {
        // Three idle workers of program 0 lent one after another; each loan raises the borrower's serving count.
        double[] s = [1, 4, 2];
        int[] serving = [3, 4, 2];
        int[] tasks = [0, 10, 10];
        var borrowers = new List<int>();
        for (int k = 0; k < 3; k++)
        {
            int b = IdleLending.ChooseBorrower(Input(s, serving, tasks, 0));
            borrowers.Add(b);
            serving[0]--;
            serving[b]++;
        }

        // Scores serving/s: 1 vs 1 → tie → higher s (1); then 5/4 = 1.25 vs 1 → 2; then 1.25 vs 1.5 → 1.
        Assert.Equal([1, 2, 1], borrowers);
    }

    // cores, scalabilities, serving, tasks, lender, expected borrower: computed by hand from the Amdahl fit
    // f = (1 − 1/s) / (1 − 1/N), S(c) = 1 / ((1 − f) + f/c), gain = (S(c+1) − S(c)) / S(N).
    public static TheoryData<int, double[], int[], int[], int, int> ThroughputCases => new()
    {
        // N 16: s 16 is linear (gain 1/16 = 0.0625 at any c); s 4 has f = 0.8: at c = 2, (2.1429 − 1.6667) / 4 = 0.1190 → 1.
        { 16, [16, 4], [4, 2], [5, 5], -1, 1 },
        // At c = 10 the s = 4 program gains (3.6667 − 3.5714) / 4 = 0.0238 < 0.0625 → 0.
        { 16, [16, 4], [4, 10], [5, 5], -1, 0 },
        // A program served by nobody gains S(1)/S(N) = 1/s: 1/4 beats 1/16 → 1 even though its scalability is lower.
        { 16, [16, 4], [0, 0], [5, 5], -1, 1 },
        // Only programs with tasks, never the lender.
        { 16, [16, 4, 2], [4, 10, 0], [5, 5, 0], 0, 1 },
        { 16, [1, 1], [1, 1], [0, 0], 0, -1 },
        // Equal gains (two linear programs): the lower serving / s, then higher s, then lower index.
        { 8, [8, 8], [3, 2], [1, 1], -1, 1 },
        { 8, [8, 8], [2, 2], [1, 1], -1, 0 },
    };

    [Theory]
    [MemberData(nameof(ThroughputCases))]
    public void ChooseByThroughput_LargestPredictedGainInNormalisedProgress(int cores, double[] s, int[] serving, int[] tasks, int lender, int expected)
    {
        Assert.Equal(expected, IdleLending.ChooseByThroughput(Input(s, serving, tasks, lender, cores)));
        Assert.Equal(expected, new WorkConservingPolicy().ChooseBorrower(Input(s, serving, tasks, lender, cores)));
    }

    [Fact]
    public void ChooseByThroughput_UsesTheScalabilityTableWhenThereIsOne()
    {
        // Program 0's table flattens at 2 cores (gain 0 from 2 to 3); program 1 (no table, s = 2 on 4 cores: f = 2/3) gains.
        var table = new ScalabilityTable([(1, 1.0), (2, 2.0), (4, 2.0)]);
        ProgramLoad[] programs = [new(0, 2.0, 5, table), new(1, 2.0, 5)];
        Assert.Equal(1, IdleLending.ChooseByThroughput(new LendingInput(4, programs, [2, 2], [5, 5], -1)));
    }

    [Fact]
    public void Choose_RejectsAnIndexOutOfRange_TheLender_AndAnException()
    {
        double[] s = [1, 2];
        Assert.Equal(-1, IdleLending.Choose(new RuleReturning(5), Input(s, [1, 1], [1, 1], 0), out string? tooBig));
        Assert.Contains("program index 5", tooBig, StringComparison.Ordinal);
        Assert.Equal(-1, IdleLending.Choose(new RuleReturning(0), Input(s, [1, 1], [1, 1], 0), out string? self));
        Assert.NotNull(self);
        Assert.Equal(-1, IdleLending.Choose(new RuleReturning(int.MinValue), Input(s, [1, 1], [1, 1], 0), out string? threw));
        Assert.Contains("threw InvalidOperationException", threw, StringComparison.Ordinal);
        Assert.Equal(1, IdleLending.Choose(null, Input(s, [1, 1], [0, 1], 0), out string? none));
        Assert.Null(none);
    }

    [Fact]
    public void BadArguments_Throw()
    {
        Assert.Throws<ArgumentException>(() => IdleLending.ChooseBorrower(Input([1, 2], [1], [1, 1], 0)));
        Assert.Throws<ArgumentOutOfRangeException>(() => IdleLending.ChooseBorrower(Input([1, 2], [1, 1], [1, 1], 2)));
    }

    [Fact]
    public void IdleLendingPolicy_DecidesLikeTaskAvailabilityAtEachDecision()
    {
        var input = new PartitioningInput(32, TaskAvailabilityPolicyTests.Loads([15.18, 10.43, 9.71], [18, 1, 12]));

        Assert.Equal(new TaskAvailabilityPolicy().Decide(input).CountsByIndex(input), new IdleLendingPolicy().Decide(input).CountsByIndex(input));
        Assert.Equal(RotationScope.ProgramsWithTasks, ((IPartitioningPolicy)new IdleLendingPolicy()).Rotation);
        Assert.IsAssignableFrom<IIdleLendingPolicy>(PartitioningPolicies.Create("idle-lending"));
    }

    private static LendingInput Input(double[] s, int[] serving, int[] tasks, int lender, int cores = 64)
        => new(cores, s.Select((x, i) => new ProgramLoad(i, x, tasks.Length > i ? tasks[i] : 0)).ToArray(), serving, tasks, lender);

    private sealed class RuleReturning(int answer) : IIdleLendingPolicy
    {
        public string Name => "rule";

        public Shares Decide(PartitioningInput input) => throw new NotSupportedException();

        public int ChooseBorrower(LendingInput input) => answer == int.MinValue ? throw new InvalidOperationException("broken rule") : answer;
    }
}
