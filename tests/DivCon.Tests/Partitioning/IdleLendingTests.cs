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
        Assert.Equal(expected, IdleLending.ChooseBorrower(s, serving, tasks, lender));
        Assert.Equal(expected, new IdleLendingPolicy().ChooseBorrower(s, serving, tasks, lender));
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
            int b = IdleLending.ChooseBorrower(s, serving, tasks, 0);
            borrowers.Add(b);
            serving[0]--;
            serving[b]++;
        }

        // Scores serving/s: 1 vs 1 → tie → higher s (1); then 5/4 = 1.25 vs 1 → 2; then 1.25 vs 1.5 → 1.
        Assert.Equal([1, 2, 1], borrowers);
    }

    [Fact]
    public void BadArguments_Throw()
    {
        Assert.Throws<ArgumentException>(() => IdleLending.ChooseBorrower([1, 2], [1], [1, 1], 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => IdleLending.ChooseBorrower([1, 2], [1, 1], [1, 1], 2));
        Assert.Throws<ArgumentOutOfRangeException>(() => IdleLending.ChooseBorrower([1, 0], [1, 1], [1, 1], 0));
    }

    [Fact]
    public void IdleLendingPolicy_DecidesLikeTaskAvailabilityAtEachTick()
    {
        var input = new PartitioningInput(32, TaskAvailabilityPolicyTests.Loads([15.18, 10.43, 9.71], [18, 1, 12]));

        Assert.Equal(new TaskAvailabilityPolicy().Decide(input).WorkerOwners, new IdleLendingPolicy().Decide(input).WorkerOwners);
        Assert.IsAssignableFrom<IIdleLendingPolicy>(PartitioningPolicies.Create("idle-lending"));
    }
}
