using DivCon.Scheduling;

namespace DivCon.Tests.Affinity;

public sealed class CpuTopologyTests
{
    [Theory]
    [InlineData(1, new[] { 0 })]
    [InlineData(3, new[] { 0, 1, 2 })]
    [InlineData(4, new[] { 0, 1, 2, 3 })]
    [InlineData(5, new[] { 0, 1, 2, 3, 4 })]
    [InlineData(8, new[] { 0, 1, 2, 3, 4, 5, 6, 7 })]
    public void SelectContiguous_TwoGroupsTwoNodes_TakesTheFirstProcessors(int n, int[] expected)
    {
        Assert.Equal(expected, CpuTopology.Uniform(8, 2, 2).SelectContiguous(n));
    }

    [Theory]
    [InlineData(1, new[] { 0 })]
    [InlineData(2, new[] { 0, 4 })]
    [InlineData(3, new[] { 0, 1, 4 })]
    [InlineData(4, new[] { 0, 1, 4, 5 })]
    [InlineData(8, new[] { 0, 1, 2, 3, 4, 5, 6, 7 })]
    public void SelectDispersed_TwoGroupsTwoNodes_AlternatesNodes(int n, int[] expected)
    {
        Assert.Equal(expected, CpuTopology.Uniform(8, 2, 2).SelectDispersed(n));
    }

    [Theory]
    [InlineData(2, new[] { 0, 4 })]
    [InlineData(4, new[] { 0, 2, 4, 6 })]
    [InlineData(6, new[] { 0, 1, 2, 4, 5, 6 })]
    public void SelectDispersed_TwoGroupsPerNode_SpreadsOverNodesThenGroups(int n, int[] expected)
    {
        // Cache groups 0-1, 2-3, 4-5, 6-7; nodes 0-3, 4-7.
        Assert.Equal(expected, CpuTopology.Uniform(8, 4, 2).SelectDispersed(n));
    }

    [Fact]
    public void SingleProcessor_IsTheOnlyChoice()
    {
        var one = CpuTopology.Flat([5]);

        Assert.Equal([5], one.SelectContiguous(1));
        Assert.Equal([5], one.SelectDispersed(1));
        Assert.Null(Assert.Single(one.CacheGroups).Level);
        Assert.Equal(0, Assert.Single(one.NumaNodes).Id);
    }

    [Fact]
    public void ThesisFigure5_3_EightThreadsOnFourSixteenCoreChips()
    {
        var machine = CpuTopology.Uniform(64, 4, 4);

        Assert.Equal(Enumerable.Range(0, 8), machine.SelectContiguous(8));
        Assert.Equal([0, 1, 16, 17, 32, 33, 48, 49], machine.SelectDispersed(8));
    }

    [Fact]
    public void SelectContiguous_PrefersOneWholeGroupOverAPartlyUsedOne()
    {
        // Processors 0-1 are taken, so group 0 has 2 left and group 1 has 4: 3 or 4 processors fit in group 1 alone.
        var free = CpuTopology.Uniform(8, 2, 2).Restrict([2, 3, 4, 5, 6, 7]);

        Assert.Equal([4, 5, 6], free.SelectContiguous(3));
        Assert.Equal([4, 5, 6, 7], free.SelectContiguous(4));
        Assert.Equal([2, 3, 4, 5, 6], free.SelectContiguous(5));
        Assert.Equal([2, 3], free.SelectContiguous(2));
    }

    [Fact]
    public void SelectContiguous_SkipsSmallGroupsBetweenLargeOnes_WhenThatUsesFewerGroups()
    {
        // Groups {0}, {1-4}, {5}, {6-9}: 8 processors fit in the two large groups, no run of consecutive groups does.
        var topology = new CpuTopology(
            Enumerable.Range(0, 10),
            [new CacheGroup([0]), new CacheGroup([1, 2, 3, 4]), new CacheGroup([5]), new CacheGroup([6, 7, 8, 9])],
            [new NumaNode(0, Enumerable.Range(0, 10))]);

        Assert.Equal([1, 2, 3, 4, 6, 7, 8, 9], topology.SelectContiguous(8));
        Assert.Equal([1, 2, 3, 4], topology.SelectContiguous(4));
    }

    [Fact]
    public void SelectContiguous_AmongEqualGroupCounts_PrefersOneNumaNode()
    {
        // Groups {0,1}, {2,3}, {4,5}; node 0 = {0,1}, node 1 = {2..5}. Four processors need two groups either way; the
        // groups {2,3} and {4,5} are on one node.
        var topology = new CpuTopology(
            Enumerable.Range(0, 6),
            [new CacheGroup([0, 1]), new CacheGroup([2, 3]), new CacheGroup([4, 5])],
            [new NumaNode(0, [0, 1]), new NumaNode(1, [2, 3, 4, 5])]);

        Assert.Equal([2, 3, 4, 5], topology.SelectContiguous(4));
    }

    [Fact]
    public void Selections_OnRandomUniformMachines_HaveTheirDefiningProperties()
    {
        var random = new Random(5_1_3);
        for (int trial = 0; trial < 200; trial++)
        {
            int nodes = random.Next(1, 5), groupsPerNode = random.Next(1, 4), perGroup = random.Next(1, 9);
            int count = nodes * groupsPerNode * perGroup;
            var machine = CpuTopology.Uniform(count, nodes * groupsPerNode, nodes);
            int n = random.Next(1, count + 1);

            IReadOnlyList<int> contiguous = machine.SelectContiguous(n);
            IReadOnlyList<int> dispersed = machine.SelectDispersed(n);

            // Both: n distinct processors of the machine, ascending.
            foreach (var chosen in new[] { contiguous, dispersed })
            {
                Assert.Equal(n, chosen.Count);
                Assert.Equal(chosen.Distinct().Order(), chosen);
                Assert.All(chosen, p => Assert.InRange(p, 0, count - 1));
            }

            // Contiguous: as few groups as can hold n.
            int fewestGroups = (n + perGroup - 1) / perGroup;
            Assert.Equal(fewestGroups, contiguous.Select(p => machine.GetCacheGroup(p)).Distinct().Count());

            // Dispersed: per-node counts differ by at most one, and per-group counts within a node too.
            int[] perNode = machine.NumaNodes.Select(node => dispersed.Count(node.Processors.Contains)).ToArray();
            Assert.True(perNode.Max() - perNode.Min() <= 1, $"per-node counts {string.Join(",", perNode)} for n={n}");
            foreach (NumaNode node in machine.NumaNodes)
            {
                int[] perGroupInNode = machine.CacheGroups.Where(g => node.Processors.Contains(g.Processors[0]))
                    .Select(g => dispersed.Count(g.Processors.Contains)).ToArray();
                Assert.True(perGroupInNode.Max() - perGroupInNode.Min() <= 1, $"per-group counts {string.Join(",", perGroupInNode)} for n={n}");
            }
        }
    }

    [Theory]
    [InlineData(0)]
    [InlineData(9)]
    [InlineData(-1)]
    public void Select_OutOfRangeCount_SaysWhatIsAllowed(int n)
    {
        var machine = CpuTopology.Uniform(8, 2, 2);

        var contiguous = Assert.Throws<ArgumentOutOfRangeException>(() => machine.SelectContiguous(n));
        var dispersed = Assert.Throws<ArgumentOutOfRangeException>(() => machine.SelectDispersed(n));

        Assert.Contains("from 1 to 8", contiguous.Message, StringComparison.Ordinal);
        Assert.Contains("0-7", dispersed.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Constructor_SortsGroupsAndNodes_AndLooksUpProcessors()
    {
        var topology = new CpuTopology(
            [3, 1, 2, 0],
            [new CacheGroup([3, 2], 2, 1024), new CacheGroup([1, 0], 2, 1024)],
            [new NumaNode(1, [2, 3]), new NumaNode(0, [0, 1])]);

        Assert.Equal([0, 1, 2, 3], topology.Processors);
        Assert.Equal([0, 1], topology.CacheGroups[0].Processors);
        Assert.Equal([0, 1], topology.NumaNodes.Select(n => n.Id));
        Assert.Same(topology.CacheGroups[1], topology.GetCacheGroup(3));
        Assert.Equal(1, topology.GetNumaNode(2).Id);
        var e = Assert.Throws<ArgumentException>(() => topology.GetCacheGroup(7));
        Assert.Contains("0-3", e.Message, StringComparison.Ordinal);
    }

    public static TheoryData<string, Func<CpuTopology>, string> InvalidTopologies => new()
    {
        { "processor in two groups", () => new CpuTopology([0, 1], [new CacheGroup([0, 1]), new CacheGroup([1])], [new NumaNode(0, [0, 1])]), "Processor 1 is in two cache groups" },
        { "processor in no group", () => new CpuTopology([0, 1, 2], [new CacheGroup([0, 1])], [new NumaNode(0, [0, 1, 2])]), "Processors 2 are in no cache group" },
        { "unknown processor in a node", () => new CpuTopology([0, 1], [new CacheGroup([0, 1])], [new NumaNode(0, [0, 1, 5])]), "Processor 5 is in a NUMA node" },
        { "duplicate node id", () => new CpuTopology([0, 1], [new CacheGroup([0, 1])], [new NumaNode(0, [0]), new NumaNode(0, [1])]), "NUMA node id 0 appears twice" },
        { "no processors", () => new CpuTopology([], [], []), "at least one processor" },
        { "duplicate processor", () => CpuTopology.Flat([0, 0]), "processor 0 twice" },
        { "negative processor", () => CpuTopology.Flat([-2, 0]), "negative processor id (-2)" },
        { "uneven split", () => CpuTopology.Uniform(6, 4, 1), "cannot be split evenly" },
        { "restrict to unknown", () => CpuTopology.Uniform(4, 1, 1).Restrict([1, 9]), "Processor 9 is not in this topology; allowed: 0-3" },
        { "empty cache group", () => new CpuTopology([0], [new CacheGroup([]), new CacheGroup([0])], [new NumaNode(0, [0])]), "A cache group needs at least one processor" },
    };

    [Theory]
    [MemberData(nameof(InvalidTopologies))]
    public void InvalidTopology_IsRejectedWithAClearMessage(string caseName, Func<CpuTopology> create, string expectedMessage)
    {
        var e = Assert.ThrowsAny<ArgumentException>(() => create());
        Assert.True(e.Message.Contains(expectedMessage, StringComparison.Ordinal), $"{caseName}: {e.Message}");
    }

    [Fact]
    public void CacheGroup_RejectsNonPositiveLevelAndSize()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new CacheGroup([0], level: 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => new CacheGroup([0], sizeBytes: -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => new NumaNode(-1, [0]));
    }
}
