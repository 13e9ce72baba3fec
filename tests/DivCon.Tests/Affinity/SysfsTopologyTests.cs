using DivCon.Scheduling;

namespace DivCon.Tests.Affinity;

public sealed class SysfsTopologyTests
{
    private static readonly int[] All8 = [0, 1, 2, 3, 4, 5, 6, 7];

    /// <summary>8 processors, L3 shared by 0-3 and by 4-7, NUMA nodes 0-3 and 4-7; cpu0 has no <c>online</c> file.</summary>
    private static FakeSysfs TwoSocketMachine()
    {
        var sysfs = new FakeSysfs().Cpus(8).Node(0, "0-3").Node(1, "4-7");
        for (int p = 0; p < 8; p++)
        {
            sysfs.X86Caches(p, p < 4 ? "0-3" : "4-7");
        }

        return sysfs;
    }

    [Fact]
    public void TwoLlcGroupsAndTwoNodes_AreFound()
    {
        using var sysfs = TwoSocketMachine();

        var topology = CpuTopology.FromSysfs(sysfs.Root, All8);

        Assert.Equal(All8, topology.Processors);
        Assert.Equal(2, topology.CacheGroups.Count);
        Assert.Equal([0, 1, 2, 3], topology.CacheGroups[0].Processors);
        Assert.Equal([4, 5, 6, 7], topology.CacheGroups[1].Processors);
        Assert.All(topology.CacheGroups, g => Assert.Equal(3, g.Level));
        Assert.All(topology.CacheGroups, g => Assert.Equal(16L * 1024 * 1024, g.SizeBytes));
        Assert.Equal([0, 1], topology.NumaNodes.Select(n => n.Id));
        Assert.Equal([0, 1, 2, 3], topology.NumaNodes[0].Processors);
        Assert.Equal([4, 5, 6, 7], topology.NumaNodes[1].Processors);
    }

    [Fact]
    public void RestrictedMask_KeepsOnlyAllowedProcessors_AndDropsEmptyGroups()
    {
        using var sysfs = TwoSocketMachine();

        var topology = CpuTopology.FromSysfs(sysfs.Root, [1, 2, 5]);

        Assert.Equal([1, 2, 5], topology.Processors);
        Assert.Equal([[1, 2], [5]], topology.CacheGroups.Select(g => g.Processors.ToArray()));
        Assert.Equal([0, 1], topology.NumaNodes.Select(n => n.Id));
        Assert.Equal([5], topology.NumaNodes[1].Processors);
    }

    [Fact]
    public void OfflineProcessor_IsExcluded_AndCpu0WithoutOnlineFileIsOnline()
    {
        using var sysfs = TwoSocketMachine();
        sysfs.Offline(3);

        var topology = CpuTopology.FromSysfs(sysfs.Root, All8);

        Assert.Equal([0, 1, 2, 4, 5, 6, 7], topology.Processors);
        Assert.Equal([0, 1, 2], topology.CacheGroups[0].Processors);
    }

    [Fact]
    public void NoCacheFolders_GroupsByPackage_WithUnknownLevel()
    {
        using var sysfs = new FakeSysfs().Cpus(4);
        for (int p = 0; p < 4; p++)
        {
            sysfs.Package(p, p < 2 ? "0-1" : "2-3");
        }

        var topology = CpuTopology.FromSysfs(sysfs.Root, [0, 1, 2, 3]);

        Assert.Equal([[0, 1], [2, 3]], topology.CacheGroups.Select(g => g.Processors.ToArray()));
        Assert.All(topology.CacheGroups, g => Assert.Null(g.Level));
        Assert.All(topology.CacheGroups, g => Assert.Null(g.SizeBytes));
    }

    [Fact]
    public void NoCacheAndNoTopologyFiles_IsFlat()
    {
        using var sysfs = new FakeSysfs().Cpus(4);

        var topology = CpuTopology.FromSysfs(sysfs.Root, [0, 1, 2, 3]);

        var group = Assert.Single(topology.CacheGroups);
        Assert.Equal([0, 1, 2, 3], group.Processors);
        Assert.Null(group.Level);
        var node = Assert.Single(topology.NumaNodes);
        Assert.Equal(0, node.Id);
        Assert.Equal([0, 1, 2, 3], node.Processors);
    }

    [Fact]
    public void MissingSysfsRoot_IsFlatOverTheAllowedProcessors()
    {
        string missing = Path.Combine(Path.GetTempPath(), "divcon-no-such-sysfs-" + Guid.NewGuid().ToString("N"));

        var topology = CpuTopology.FromSysfs(missing, [2, 3]);

        Assert.Equal([2, 3], topology.Processors);
        Assert.Equal([2, 3], Assert.Single(topology.CacheGroups).Processors);
        Assert.Equal([2, 3], Assert.Single(topology.NumaNodes).Processors);
    }

    [Fact]
    public void L2AsLastLevel_WithoutL3_GivesL2Groups()
    {
        using var sysfs = new FakeSysfs().Cpus(4);
        for (int p = 0; p < 4; p++)
        {
            string self = p.ToString(System.Globalization.CultureInfo.InvariantCulture);
            sysfs.Cache(p, 0, 1, "Data", "32K", self)
                .Cache(p, 1, 1, "Instruction", "32K", self)
                .Cache(p, 2, 2, "Unified", "2M", p < 2 ? "0-1" : "2-3");
        }

        var topology = CpuTopology.FromSysfs(sysfs.Root, [0, 1, 2, 3]);

        Assert.Equal([[0, 1], [2, 3]], topology.CacheGroups.Select(g => g.Processors.ToArray()));
        Assert.All(topology.CacheGroups, g => Assert.Equal(2, g.Level));
        Assert.All(topology.CacheGroups, g => Assert.Equal(2L * 1024 * 1024, g.SizeBytes));
    }

    [Fact]
    public void InconsistentSharedLists_StillPartitionTheProcessors()
    {
        // cpu0 claims to share with 0-2, cpu2 claims to share with 2-3: each processor must still land in one group.
        using var sysfs = new FakeSysfs().Cpus(4)
            .Cache(0, 0, 3, "Unified", null, "0-2")
            .Cache(1, 0, 3, "Unified", null, "0-2")
            .Cache(2, 0, 3, "Unified", null, "2-3")
            .Cache(3, 0, 3, "Unified", null, "2-3");

        var topology = CpuTopology.FromSysfs(sysfs.Root, [0, 1, 2, 3]);

        Assert.Equal([[0, 1, 2], [3]], topology.CacheGroups.Select(g => g.Processors.ToArray()));
        Assert.All(topology.CacheGroups, g => Assert.Null(g.SizeBytes));
    }

    [Fact]
    public void ProcessorInNoNodeList_IsOnNode0()
    {
        using var sysfs = new FakeSysfs().Cpus(4).Node(1, "2-3");

        var topology = CpuTopology.FromSysfs(sysfs.Root, [0, 1, 2, 3]);

        Assert.Equal([0, 1], topology.NumaNodes.Select(n => n.Id));
        Assert.Equal([0, 1], topology.NumaNodes[0].Processors);
        Assert.Equal([2, 3], topology.NumaNodes[1].Processors);
    }

    [Theory]
    [InlineData("32768K", 33554432L)]
    [InlineData("1M", 1048576L)]
    [InlineData("2G", 2147483648L)]
    [InlineData("512", 512L)]
    [InlineData("48k", 49152L)]
    [InlineData("", null)]
    [InlineData(null, null)]
    [InlineData("K", null)]
    [InlineData("abcK", null)]
    [InlineData("-1K", null)]
    [InlineData("0K", null)]
    [InlineData("99999999999999999G", null)]
    public void ParseSize_ReadsBinaryMultiples(string? text, long? expected)
    {
        Assert.Equal(expected, CpuTopology.ParseSize(text));
    }

    [Fact]
    public void Detect_OnThisMachine_CoversExactlyTheProcessAffinity()
    {
        IReadOnlyList<int> allowed = ThreadAffinity.GetProcessAffinity();

        var topology = CpuTopology.Detect();

        Assert.Equal(allowed, topology.Processors);
        Assert.Equal(allowed, topology.CacheGroups.SelectMany(g => g.Processors).Order());
        Assert.Equal(allowed, topology.NumaNodes.SelectMany(n => n.Processors).Order());
    }
}
