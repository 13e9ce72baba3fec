using System.CommandLine;
using System.Globalization;
using System.Text;
using System.Text.Json;
using DivCon.Harness.Reporting;
using DivCon.Scheduling;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon topology</c>: the processors this process may use (its affinity mask, so <c>taskset</c> and container
/// cpusets show), the groups of them sharing a last-level cache, the NUMA nodes, and the CPU budget (allowed
/// processors, cgroup CPU quota, <c>DOTNET_PROCESSOR_COUNT</c>, the resulting core count, each with its source:
/// <see cref="CpuBudget.Describe"/>).
/// </summary>
internal static class TopologyCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create()
    {
        var json = CommandInput.Declare<bool>("--json",
            "Print the topology as JSON: {\"processors\":[…],\"cacheGroups\":[{\"level\",\"sizeBytes\",\"processors\"}],\"numaNodes\":[{\"id\",\"processors\"}],"
            + "\"budget\":{\"cores\",\"limitedBy\",\"allowedProcessors\",\"allowedProcessorsSource\",\"quota\",\"processorCountOverride\",…,\"reason\"}}; unknown level or size is null.");
        var command = new Command(
            "topology",
            "Show the processors this process may use (affinity mask: taskset, cgroup cpuset), the cache groups (processors sharing a last-level cache, with level and size), "
            + "the NUMA nodes, and the CPU budget the schedulers size themselves by (allowed processors, cgroup CPU quota, DOTNET_PROCESSOR_COUNT; each with where it came from).")
        {
            json,
        };
        command.SetAction(async (ParseResult parse, CancellationToken cancellationToken) =>
        {
            TextWriter output = parse.InvocationConfiguration.Output;
            CpuTopology topology = CpuTopology.Detect();
            CpuBudget budget = CpuBudget.Detect();
            string text = parse.GetValue(json) ? ToJson(topology, budget) : ToText(topology, budget);
            await output.WriteAsync(text.AsMemory(), cancellationToken);
            return 0;
        });
        return command;
    }

    /// <summary>The human-readable listing, one line per group and node, then the budget's lines, invariant culture.</summary>
    internal static string ToText(CpuTopology topology, CpuBudget? budget = null)
    {
        var sb = new StringBuilder();
        sb.Append(CultureInfo.InvariantCulture, $"Processors this process may use: {CpuList.Format(topology.Processors)} ({topology.Processors.Count})").AppendLine();
        sb.Append(CultureInfo.InvariantCulture, $"Cache groups (processors sharing a last-level cache): {topology.CacheGroups.Count}").AppendLine();
        foreach (CacheGroup group in topology.CacheGroups)
        {
            string level = group.Level is { } l ? $"L{l}" : "level unknown";
            string size = group.SizeBytes is { } s ? FormatSize(s) : "size unknown";
            sb.Append(CultureInfo.InvariantCulture, $"  {level}, {size}: {CpuList.Format(group.Processors)}").AppendLine();
        }

        sb.Append(CultureInfo.InvariantCulture, $"NUMA nodes: {topology.NumaNodes.Count}").AppendLine();
        foreach (NumaNode node in topology.NumaNodes)
        {
            sb.Append(CultureInfo.InvariantCulture, $"  node {node.Id}: {CpuList.Format(node.Processors)}").AppendLine();
        }

        if (budget is not null)
        {
            sb.Append(CultureInfo.InvariantCulture, $"CPU budget (the workers a scheduler starts by default): {budget.Cores}").AppendLine();
            foreach (string line in budget.Describe())
            {
                sb.Append("  ").Append(line).AppendLine();
            }
        }

        return sb.ToString();
    }

    /// <summary>The JSON form (see the <c>--json</c> option's description), followed by a newline.</summary>
    internal static string ToJson(CpuTopology topology, CpuBudget? budget = null) =>
        JsonSerializer.Serialize(new TopologyRecord(topology.Processors, topology.CacheGroups, topology.NumaNodes, budget), HarnessJsonContext.Files.TopologyRecord) + Environment.NewLine;

    /// <summary>Bytes in the largest binary unit that divides them exactly (sysfs sizes are whole KiB), e.g. 32 MiB.</summary>
    internal static string FormatSize(long bytes)
    {
        string[] units = ["B", "KiB", "MiB", "GiB", "TiB"];
        int unit = 0;
        while (unit < units.Length - 1 && bytes >= 1024 && bytes % 1024 == 0)
        {
            bytes /= 1024;
            unit++;
        }

        return string.Create(CultureInfo.InvariantCulture, $"{bytes} {units[unit]}");
    }
}
