using DivCon.Partitioning;

namespace DivCon.Tests.Partitioning;

public sealed class TaskAvailabilityPolicyTests
{
    private static readonly double[] s_figureSpeedups = [15.18, 10.43, 9.71];
    private static readonly int[] s_figureTasks = [18, 1, 12];

    private static TaskAvailabilityPlan FigurePlan() => TaskAvailabilityPolicy.Compute(32, s_figureSpeedups, s_figureTasks);

    [Fact]
    public void Figure520_SharesBaseAndCapped()
    {
        TaskAvailabilityPlan plan = FigurePlan();

        Assert.Equal([13.75, 9.45, 8.80], plan.Scalability.Shares.Select(x => Math.Round(x, 2)));
        Assert.Equal([0.43, 0.30, 0.27], plan.Scalability.Shares.Select(x => Math.Round(x / 32, 2)));
        Assert.Equal([14, 9, 9], plan.Scalability.Base);
        Assert.Equal([14, 1, 9], plan.Capped);
        Assert.Equal(8, plan.RemainingAfterCap);
    }

    // The rows of Figure 5.20's lower part: remaining before the step, each program's allocation and score, the
    // program (1-based, as in the thesis) that gets the core, and the stage.
    public static TheoryData<int, int, int[], double[], int, RepartitionPhase> FigureRows => new()
    {
        { 0, 8, [14, 1, 9], [1.018, 0.106, 1.023], 1, RepartitionPhase.TaskBounded },
        { 1, 7, [15, 1, 9], [1.091, 0.106, 1.023], 3, RepartitionPhase.TaskBounded },
        { 2, 6, [15, 1, 10], [1.091, 0.106, 1.137], 1, RepartitionPhase.TaskBounded },
        { 3, 5, [16, 1, 10], [1.163, 0.106, 1.137], 3, RepartitionPhase.TaskBounded },
        { 4, 4, [16, 1, 11], [1.163, 0.106, 1.250], 1, RepartitionPhase.TaskBounded },
        { 5, 3, [17, 1, 11], [1.236, 0.106, 1.250], 1, RepartitionPhase.TaskBounded },
        { 6, 2, [18, 1, 11], [1.309, 0.106, 1.250], 3, RepartitionPhase.TaskBounded },
        { 7, 1, [18, 1, 12], [1.309, 0.106, 1.364], 2, RepartitionPhase.Unbounded },
    };

    [Theory]
    [MemberData(nameof(FigureRows))]
    public void Figure520_EachStepMatchesTheThesis(int step, int remaining, int[] counts, double[] scores, int programOneBased, RepartitionPhase phase)
    {
        TaskAvailabilityPlan plan = FigurePlan();
        var rows = plan.Rows();
        RepartitionStep s = plan.Steps[step];

        Assert.Equal(remaining, s.RemainingBefore);
        Assert.Equal(counts, rows[step]);
        Assert.Equal(scores, Enumerable.Range(0, 3).Select(i => Math.Round(plan.Score(i, rows[step][i]), 3)));
        Assert.Equal(programOneBased - 1, s.Program);
        Assert.Equal(phase, s.Phase);
        Assert.Equal(counts[s.Program], s.CountBefore);
        Assert.Equal(scores[s.Program], Math.Round(s.ScoreBefore, 3));
    }

    [Fact]
    public void Figure520_SevenBoundedStepsThenOneUnboundedThenFinal()
    {
        TaskAvailabilityPlan plan = FigurePlan();

        Assert.Equal([1, 3, 1, 3, 1, 1, 3], plan.Steps.Where(s => s.Phase == RepartitionPhase.TaskBounded).Select(s => s.Program + 1));
        Assert.Equal([2], plan.Steps.Where(s => s.Phase == RepartitionPhase.Unbounded).Select(s => s.Program + 1));
        Assert.Equal(
            [1.018, 1.023, 1.091, 1.137, 1.163, 1.236, 1.250, 0.106],
            plan.Steps.Select(s => Math.Round(s.ScoreBefore, 3)));
        Assert.Equal(1.364, Math.Round(plan.Steps[6].ScoreAfter, 3));
        Assert.Equal([18, 2, 12], plan.Final);
        Assert.Equal([1.309, 0.212, 1.364], Enumerable.Range(0, 3).Select(i => Math.Round(plan.Score(i, plan.Final[i]), 3)));
        Assert.Equal([18, 2, 12], plan.Rows()[^1]);
    }

    [Fact]
    public void Figure520_DecideRecordsReasonsPerSlotAndPlacesContiguously()
    {
        var input = new PartitioningInput(32, Loads(s_figureSpeedups, s_figureTasks));

        Allocation allocation = PartitioningKit.Decided(new TaskAvailabilityPolicy(), input);

        Assert.Empty(allocation.Validate(input));
        Assert.Equal([18, 2, 12], allocation.Counts);
        Assert.Equal(Enumerable.Repeat(0, 18).Concat(Enumerable.Repeat(1, 2)).Concat(Enumerable.Repeat(2, 12)), allocation.OwnerIndices(input));
        Assert.Equal(14, Count(allocation, 0, AllocationReason.ScalabilityShare));
        Assert.Equal(4, Count(allocation, 0, AllocationReason.AvailabilityCap));
        Assert.Equal(1, Count(allocation, 1, AllocationReason.ScalabilityShare));
        Assert.Equal(1, Count(allocation, 1, AllocationReason.SpareCore));
        Assert.Equal(9, Count(allocation, 2, AllocationReason.ScalabilityShare));
        Assert.Equal(3, Count(allocation, 2, AllocationReason.AvailabilityCap));
    }

    // cores, speedups, tasks, expected final (computed by hand from docs/DESIGN.md §4)
    public static TheoryData<int, double[], int[], int[]> HandCases => new()
    {
        // One program: everything, whatever its tasks.
        { 4, [3.0], [0], [4] },
        { 4, [3.0], [10], [4] },
        // Nobody short of tasks: the base stands (the O(m) path).
        { 64, [23, 13, 12], [100, 100, 100], [31, 17, 16] },
        // Two equal programs, one with 1 task: base 2/2, capped 2/1, the freed core goes to program 1 (bounded).
        { 4, [1, 1], [5, 1], [3, 1] },
        // Zero tasks everywhere: base 2/1/1 capped to 0/0/0; all 4 dealt by lowest score: first one each by
        // scalability (0, 1, 2), then the 4th core to the lowest score 1/s: 1/4 < 1/2 → program 0.
        { 4, [4, 2, 2], [0, 0, 0], [2, 1, 1] },
        // Fewer cores than programs: base gives the 2 cores to the most scalable (0, 1); program 1 has no tasks,
        // so its core goes to program 2 (score 0, has tasks) rather than program 0.
        { 2, [3, 2, 1], [5, 0, 5], [1, 0, 1] },
        // Equal scores and scalabilities: the lower index wins the tie. Base 2/1... cores 3 split 1.5/1.5 →
        // floors 1/1, remainder tie → program 0; tasks 0/9 → capped 0/1, 2 cores bounded to program 1.
        { 3, [2, 2], [0, 9], [0, 3] },
    };

    [Theory]
    [MemberData(nameof(HandCases))]
    public void HandComputedCases(int cores, double[] speedups, int[] tasks, int[] expected)
    {
        Assert.Equal(expected, TaskAvailabilityPolicy.Compute(cores, speedups, tasks).Final);
        var input = new PartitioningInput(cores, Loads(speedups, tasks));
        Assert.Equal(expected, new TaskAvailabilityPolicy().Decide(input).CountsByIndex(input));
    }

    [Fact]
    public void SuccessiveTicks_ProgramWithoutTasksLosesItsCoresAndGetsThemBack()
    {
        // The policy half of issue 5's item 5 (the mechanism half needs the MultiProgramScheduler). 16 cores,
        // speedups 8/4/4 → base 8/4/4. Tick 2: program 1 has no task → capped 8/0/4; its 4 cores go by score
        // (a/s): tie 1 vs 1 → higher s → P0 (9); P2 (1 < 1.125) → 5; P0 (1.125 < 1.25) → 10; tie 1.25 → P0 → 11.
        var policy = new TaskAvailabilityPolicy();
        PartitioningInput Tick(int[] tasks, Allocation? previous) =>
            new(16, [new(1, 8, tasks[0]), new(2, 4, tasks[1]), new(3, 4, tasks[2])], Previous: previous);

        Allocation first = PartitioningKit.Decided(policy, Tick([100, 100, 100], null));
        Allocation second = PartitioningKit.Decided(policy, Tick([100, 0, 100], first));
        Allocation third = PartitioningKit.Decided(policy, Tick([100, 100, 100], second));

        Assert.Equal([8, 4, 4], first.Counts);
        Assert.Equal([11, 0, 5], second.Counts);
        Assert.Equal(4, second.MovesFrom(first));
        Assert.Equal([8, 4, 4], third.Counts);
        Assert.Equal(4, third.MovesFrom(second));
        Assert.Equal(3, Enumerable.Range(0, 16).Count(s => second.WorkerOwners[s] == 1 && second.Reasons[s] == AllocationReason.AvailabilityCap));
    }

    [Fact]
    public void NoProgramShortOfTasks_TakesNoStep()
    {
        TaskAvailabilityPlan plan = TaskAvailabilityPolicy.Compute(64, [23, 13, 12], [31, 17, 16]);

        Assert.True(plan.NoProgramShortOfTasks);
        Assert.Empty(plan.Steps);
        Assert.Equal(plan.Scalability.Base, plan.Final);
    }

    [Fact]
    public void NoPrograms_LeavesEverySlotUnassigned()
    {
        var input = new PartitioningInput(4, []);

        Allocation allocation = PartitioningKit.Decided(new TaskAvailabilityPolicy(), input);

        Assert.Equal([-1, -1, -1, -1], allocation.WorkerOwners);
        Assert.Empty(allocation.Validate(input));
    }

    public static TheoryData<PartitioningInput, string> BadInputs => new()
    {
        { new PartitioningInput(0, Loads([1.0], [1])), "cores must be positive" },
        { new PartitioningInput(4, Loads([0.0], [1])), "scalability must be a positive finite number" },
        { new PartitioningInput(4, Loads([double.NaN], [1])), "scalability must be a positive finite number" },
        { new PartitioningInput(4, Loads([-2.0], [1])), "scalability must be a positive finite number" },
        { new PartitioningInput(4, Loads([1.0], [-1])), "must not be negative" },
        { new PartitioningInput(4, [new ProgramLoad(7, 1, 1), new ProgramLoad(7, 1, 1)]), "ids must be unique" },
    };

    [Theory]
    [MemberData(nameof(BadInputs))]
    public void BadInput_ThrowsWithAClearMessage(PartitioningInput input, string expected)
    {
        var e = Assert.Throws<ArgumentException>(() => new TaskAvailabilityPolicy().Decide(input));
        Assert.Contains(expected, e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Compute_MismatchedCounts_Throws()
    {
        var e = Assert.Throws<ArgumentException>(() => TaskAvailabilityPolicy.Compute(4, [1.0, 2.0], [1]));
        Assert.Contains("2 scalabilities but 1 task counts", e.Message, StringComparison.Ordinal);
    }

    internal static ProgramLoad[] Loads(double[] speedups, int[] tasks) =>
        speedups.Select((s, i) => new ProgramLoad(100 + i, s, tasks[i])).ToArray();

    private static int Count(Allocation allocation, int program, AllocationReason reason) =>
        Enumerable.Range(0, allocation.WorkerOwners.Count).Count(i => allocation.WorkerOwners[i] == 100 + program && allocation.Reasons[i] == reason);
}
