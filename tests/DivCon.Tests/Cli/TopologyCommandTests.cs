using System.Text.Json;
using DivCon.Cli;
using DivCon.Cli.Commands;
using DivCon.Scheduling;

namespace DivCon.Tests.Cli;

public sealed class TopologyCommandTests
{
    [Fact]
    public async Task Topology_PrintsTheProcessorsThisProcessMayUse_AndEveryGroupAndNode()
    {
        var output = new StringWriter();
        var error = new StringWriter();

        int code = await CliApp.RunAsync(["topology"], output, error);

        Assert.Equal(0, code);
        Assert.Equal(string.Empty, error.ToString());
        string text = output.ToString();
        IReadOnlyList<int> allowed = ThreadAffinity.GetProcessAffinity();
        Assert.Contains($"Processors this process may use: {CpuList.Format(allowed)} ({allowed.Count})", text, StringComparison.Ordinal);
        var topology = CpuTopology.Detect();
        foreach (CacheGroup group in topology.CacheGroups)
        {
            Assert.Contains($": {CpuList.Format(group.Processors)}", text, StringComparison.Ordinal);
        }

        foreach (NumaNode node in topology.NumaNodes)
        {
            Assert.Contains($"node {node.Id}: {CpuList.Format(node.Processors)}", text, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task TopologyJson_IsParseable_AndCoversTheProcessAffinity()
    {
        var output = new StringWriter();
        var error = new StringWriter();

        int code = await CliApp.RunAsync(["topology", "--json"], output, error);

        Assert.Equal(0, code);
        Assert.Equal(string.Empty, error.ToString());
        using var json = JsonDocument.Parse(output.ToString());
        IReadOnlyList<int> allowed = ThreadAffinity.GetProcessAffinity();
        Assert.Equal(allowed, Ids(json.RootElement.GetProperty("processors")));
        Assert.Equal(allowed, json.RootElement.GetProperty("cacheGroups").EnumerateArray().SelectMany(g => Ids(g.GetProperty("processors"))).Order());
        Assert.Equal(allowed, json.RootElement.GetProperty("numaNodes").EnumerateArray().SelectMany(n => Ids(n.GetProperty("processors"))).Order());
    }

    [Fact]
    public void ToText_OnASyntheticMachine_ListsGroupsAndNodes()
    {
        var topology = new CpuTopology(
            Enumerable.Range(0, 8),
            [new CacheGroup([0, 1, 2, 3], 3, 32L << 20), new CacheGroup([4, 5, 6, 7])],
            [new NumaNode(0, [0, 1, 2, 3]), new NumaNode(1, [4, 5, 6, 7])]);

        string expected = string.Join(Environment.NewLine,
            "Processors this process may use: 0-7 (8)",
            "Cache groups (processors sharing a last-level cache): 2",
            "  L3, 32 MiB: 0-3",
            "  level unknown, size unknown: 4-7",
            "NUMA nodes: 2",
            "  node 0: 0-3",
            "  node 1: 4-7",
            string.Empty);
        Assert.Equal(expected, TopologyCommand.ToText(topology));
    }

    [Fact]
    public void ToJson_OnASyntheticMachine_WritesNullForUnknownLevelAndSize()
    {
        var topology = new CpuTopology(
            [0, 1, 2],
            [new CacheGroup([0, 1], 2, 1L << 20), new CacheGroup([2])],
            [new NumaNode(3, [0, 1, 2])]);

        using var json = JsonDocument.Parse(TopologyCommand.ToJson(topology));

        JsonElement root = json.RootElement;
        Assert.Equal([0, 1, 2], Ids(root.GetProperty("processors")));
        JsonElement[] groups = root.GetProperty("cacheGroups").EnumerateArray().ToArray();
        Assert.Equal(2, groups.Length);
        Assert.Equal(2, groups[0].GetProperty("level").GetInt32());
        Assert.Equal(1L << 20, groups[0].GetProperty("sizeBytes").GetInt64());
        Assert.Equal([0, 1], Ids(groups[0].GetProperty("processors")));
        Assert.Equal(JsonValueKind.Null, groups[1].GetProperty("level").ValueKind);
        Assert.Equal(JsonValueKind.Null, groups[1].GetProperty("sizeBytes").ValueKind);
        JsonElement node = Assert.Single(root.GetProperty("numaNodes").EnumerateArray());
        Assert.Equal(3, node.GetProperty("id").GetInt32());
        Assert.Equal([0, 1, 2], Ids(node.GetProperty("processors")));
    }

    [Theory]
    [InlineData(512L, "512 B")]
    [InlineData(1000L, "1000 B")]
    [InlineData(49152L, "48 KiB")]
    [InlineData(1536L * 1024, "1536 KiB")]
    [InlineData(33554432L, "32 MiB")]
    [InlineData(1L << 30, "1 GiB")]
    public void FormatSize_UsesTheLargestExactBinaryUnit(long bytes, string expected)
    {
        Assert.Equal(expected, TopologyCommand.FormatSize(bytes));
    }

    [Fact]
    public async Task TopologyHelp_DescribesTheJsonOption()
    {
        var output = new StringWriter();
        var error = new StringWriter();

        int code = await CliApp.RunAsync(["topology", "--help"], output, error);

        Assert.Equal(0, code);
        Assert.Contains("--json", output.ToString(), StringComparison.Ordinal);
        Assert.Contains("NUMA", output.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task TopologyWithAnUnknownOption_IsAUsageError()
    {
        var output = new StringWriter();
        var error = new StringWriter();

        int code = await CliApp.RunAsync(["topology", "--jsn"], output, error);

        Assert.Equal(CliApp.UsageError, code);
        Assert.Contains("--jsn", error.ToString(), StringComparison.Ordinal);
    }

    private static int[] Ids(JsonElement array) => array.EnumerateArray().Select(e => e.GetInt32()).ToArray();
}
