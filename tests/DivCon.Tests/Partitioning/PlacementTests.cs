using DivCon.Partitioning;

namespace DivCon.Tests.Partitioning;

public sealed class PlacementTests
{
    private static ProgramLoad P(int id) => new(id, 1.0, 1);

    private static PartitioningInput Input(int cores, int programs, IReadOnlyList<IReadOnlyList<int>>? groups = null) =>
        new(cores, Enumerable.Range(0, programs).Select(i => P(10 * (i + 1))).ToArray(), groups);

    // cores, counts, expected owners: without topology or history, contiguous ranges in program order.
    public static TheoryData<int, int[], int[]> ContiguousCases => new()
    {
        { 1, [1], [0] },
        { 4, [4], [0, 0, 0, 0] },
        { 5, [2, 3], [0, 0, 1, 1, 1] },
        { 6, [1, 0, 5], [0, 2, 2, 2, 2, 2] },
        { 4, [0, 2, 0, 2], [1, 1, 3, 3] },
    };

    [Theory]
    [MemberData(nameof(ContiguousCases))]
    public void Default_IsContiguousInProgramOrder(int cores, int[] counts, int[] expected) =>
        Assert.Equal(expected, PartitioningKit.Place(Input(cores, counts.Length), counts).OwnerIndices(Input(cores, counts.Length)));

    // Two cache groups of four: {0,1,2,3} {4,5,6,7}, and an interleaved layout {0,2,4,6} {1,3,5,7}.
    public static TheoryData<int[][], int[], int[]> GroupCases => new()
    {
        // Each program fits one group exactly.
        { [[0, 1, 2, 3], [4, 5, 6, 7]], [4, 4], [0, 0, 0, 0, 1, 1, 1, 1] },
        // Interleaved groups: each program gets a whole group, not a contiguous id range.
        { [[0, 2, 4, 6], [1, 3, 5, 7]], [4, 4], [0, 1, 0, 1, 0, 1, 0, 1] },
        // Program 1 (needs 6, served first) takes group 0 whole; the other group's slots 4,5 go to it (it already
        // holds slot 0, so it comes first among programs in need), 6,7 to program 0: program 0 stays in one group.
        { [[0, 1, 2, 3], [4, 5, 6, 7]], [2, 6], [1, 1, 1, 1, 1, 1, 0, 0] },
        // Three groups of two, counts 2/4: program 1 takes groups 0 and 1 whole, program 0 gets group 2.
        { [[0, 1], [2, 3], [4, 5]], [2, 4], [1, 1, 1, 1, 0, 0] },
    };

    [Theory]
    [MemberData(nameof(GroupCases))]
    public void CacheGroups_WholeGroupsFirst(int[][] groups, int[] counts, int[] expected)
    {
        var input = Input(expected.Length, counts.Length, groups.Select(g => (IReadOnlyList<int>)g).ToArray());

        Assert.Equal(expected, PartitioningKit.Place(input, counts).OwnerIndices(input));
    }

    [Fact]
    public void Previous_ShrinkingProgramKeepsItsLowestSlots_GrowingOneTakesTheFreedOnes()
    {
        var old = PartitioningKit.ByIndex([10, 20], [0, 0, 0, 0, 1, 1, 1, 1]);
        var input = Input(8, 2) with { Previous = old };

        Allocation next = PartitioningKit.Place(input, [2, 6]);

        Assert.Equal([0, 0, 1, 1, 1, 1, 1, 1], next.OwnerIndices(input));
        Assert.Equal(2, next.MovesFrom(old));
    }

    [Fact]
    public void Previous_ProgramIdsAreMappedAcrossArrivalsAndExits()
    {
        // Before: ids 10 (slots 0-3) and 20 (slots 4-7). Now: ids 20 and 30 (10 left, 30 arrived).
        var old = PartitioningKit.ByIndex([10, 20], [0, 0, 0, 0, 1, 1, 1, 1]);
        var input = new PartitioningInput(8, [P(20), P(30)], Previous: old);

        Allocation next = PartitioningKit.Place(input, [4, 4]);

        // Program 20 (now index 0) keeps slots 4-7; program 30 takes the slots 10 left.
        Assert.Equal([1, 1, 1, 1, 0, 0, 0, 0], next.OwnerIndices(input));
    }

    [Fact]
    public void Previous_WithCacheGroups_ShrinkingProgramKeepsItsDensestGroup()
    {
        int[][] groups = [[0, 1, 2, 3], [4, 5, 6, 7]];
        // Program 0 holds 0-4 (four in group 0, one in group 1); shrinking to 4 it gives up slot 4.
        var old = PartitioningKit.ByIndex([10, 20], [0, 0, 0, 0, 0, 1, 1, 1]);
        var input = Input(8, 2, groups) with { Previous = old };

        Allocation next = PartitioningKit.Place(input, [4, 4]);

        Assert.Equal([0, 0, 0, 0, 1, 1, 1, 1], next.OwnerIndices(input));
    }

    [Fact]
    public void Reasons_FollowSlotsInAscendingOrder()
    {
        AllocationReason[][] reasons =
        [
            [AllocationReason.ScalabilityShare, AllocationReason.AvailabilityCap],
            [AllocationReason.SpareCore],
        ];

        Allocation a = PartitioningKit.Place(Input(3, 2), [2, 1], reasons);

        Assert.Equal([AllocationReason.ScalabilityShare, AllocationReason.AvailabilityCap, AllocationReason.SpareCore], a.Reasons);
    }

    [Fact]
    public void Reasons_GoToKeptSlotsFirst_SoAGainedSlotCarriesTheReasonItWasAddedFor()
    {
        // Program 20 held slot 1 and gains slot 0 (program 10 leaves it); its share lists the reason of the core it had
        // (Rotation) first and the one a later step added (Newcomer) last. The core that moved says Newcomer.
        var old = PartitioningKit.ByIndex([10, 20], [0, 1]);
        var input = Input(2, 2) with { Previous = old };
        AllocationReason[][] reasons = [[], [AllocationReason.Rotation, AllocationReason.Newcomer]];

        Allocation next = PartitioningKit.Place(input, [0, 2], reasons);

        Assert.Equal([1, 1], next.OwnerIndices(input));
        Assert.Equal([AllocationReason.Newcomer, AllocationReason.Rotation], next.Reasons);
    }

    [Fact]
    public void CountsNotSummingToCores_Throw()
    {
        var e = Assert.Throws<ArgumentException>(() => PartitioningKit.Place(Input(4, 2), [1, 2]));
        Assert.Contains("sum to 3 cores but there are 4", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void BadCacheGroups_Throw()
    {
        var e = Assert.Throws<ArgumentException>(() => PartitioningKit.Place(Input(4, 1, [[0, 1], [1, 2]]), [4]));
        Assert.Contains("more than one cache group", e.Message, StringComparison.Ordinal);
        Assert.Contains("in no cache group", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void MovesProperty_UnchangedProgramSet_EqualsSumOfShrinkage()
    {
        var rng = new Random(5310);
        for (int c = 0; c < 3000; c++)
        {
            int cores = rng.Next(1, 65);
            int m = rng.Next(1, 9);
            var ids = Enumerable.Range(0, m).Select(i => 7 * (i + 1)).ToArray();
            IReadOnlyList<IReadOnlyList<int>>? groups = rng.Next(2) == 0 ? null : RandomGroups(rng, cores);
            var oldInput = new PartitioningInput(cores, ids.Select(P).ToArray(), groups);
            int[] oldCounts = RandomCounts(rng, cores, m);
            Allocation old = PartitioningKit.Place(oldInput, oldCounts);

            // The same programs, possibly in another order, with new counts.
            var newIds = ids.OrderBy(_ => rng.Next()).ToArray();
            int[] newCounts = RandomCounts(rng, cores, m);
            var input = new PartitioningInput(cores, newIds.Select(P).ToArray(), groups, old);
            Allocation next = PartitioningKit.Place(input, newCounts);

            Assert.Equal(newCounts, next.CountsByIndex(input));
            int moves = next.MovesFrom(old);
            int expected = Enumerable.Range(0, m).Sum(i =>
            {
                int oldCount = oldCounts[i];
                int newCount = newCounts[Array.IndexOf(newIds, ids[i])];
                return Math.Max(0, oldCount - newCount);
            });
            Assert.True(expected == moves, $"case {c}: {moves} moves, expected {expected}");
        }
    }

    [Fact]
    public void MovesProperty_ChangedProgramSet_KeepsEveryCommonCoreItCan()
    {
        var rng = new Random(5311);
        for (int c = 0; c < 2000; c++)
        {
            int cores = rng.Next(1, 65);
            var oldIds = Enumerable.Range(0, rng.Next(1, 8)).Select(i => rng.Next(0, 12)).Distinct().ToArray();
            var newIds = Enumerable.Range(0, rng.Next(1, 8)).Select(i => rng.Next(0, 12)).Distinct().ToArray();
            int[] oldCounts = RandomCounts(rng, cores, oldIds.Length);
            Allocation old = PartitioningKit.Place(new PartitioningInput(cores, oldIds.Select(P).ToArray()), oldCounts);
            int[] newCounts = RandomCounts(rng, cores, newIds.Length);
            var input = new PartitioningInput(cores, newIds.Select(P).ToArray(), Previous: old);

            Allocation next = PartitioningKit.Place(input, newCounts);

            int moves = next.MovesFrom(old);
            int kept = newIds.Sum(id => Array.IndexOf(oldIds, id) is int o and >= 0
                ? Math.Min(oldCounts[o], newCounts[Array.IndexOf(newIds, id)])
                : 0);
            Assert.Equal(cores - kept, moves);
        }
    }

    [Fact]
    public void PolicyDecisions_WithPrevious_MoveOnlyTheShrinkage()
    {
        var rng = new Random(5312);
        var policy = new TaskAvailabilityPolicy();
        for (int c = 0; c < 1000; c++)
        {
            PartitioningInput first = PolicyPropertyTests.RandomInput(rng, withTables: false);
            if (first.Programs.Count == 0)
            {
                continue;
            }

            Allocation a = PartitioningKit.Decided(policy, first);
            var changed = first.Programs.Select(p => p with { AvailableTasks = rng.Next(0, 40) }).ToArray();
            var second = first with { Programs = changed, Previous = a };

            Allocation b = PartitioningKit.Decided(policy, second);

            Assert.Equal(Enumerable.Range(0, a.ProgramIds.Count).Sum(i => Math.Max(0, a.Counts[i] - b.Counts[i])), b.MovesFrom(a));
        }
    }

    private static int[] RandomCounts(Random rng, int cores, int m)
    {
        var counts = new int[m];
        for (int k = 0; k < cores; k++)
        {
            counts[rng.Next(m)]++;
        }

        return counts;
    }

    private static IReadOnlyList<IReadOnlyList<int>> RandomGroups(Random rng, int cores)
    {
        var slots = Enumerable.Range(0, cores).OrderBy(_ => rng.Next()).ToArray();
        var groups = new List<IReadOnlyList<int>>();
        int at = 0;
        while (at < cores)
        {
            int size = Math.Min(rng.Next(1, 9), cores - at);
            groups.Add(slots[at..(at + size)]);
            at += size;
        }

        return groups;
    }
}
