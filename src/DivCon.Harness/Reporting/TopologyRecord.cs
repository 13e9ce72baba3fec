using DivCon.Scheduling;

namespace DivCon.Harness.Reporting;

/// <summary>What <c>divcon topology --json</c> prints: the processors this process may use, the cache groups, the NUMA nodes.</summary>
/// <param name="Processors">The processors of the affinity mask, ascending.</param>
/// <param name="CacheGroups">Processors sharing a last-level cache, with its level and size (null when unknown).</param>
/// <param name="NumaNodes">The NUMA nodes and their processors.</param>
public sealed record TopologyRecord(IReadOnlyList<int> Processors, IReadOnlyList<CacheGroup> CacheGroups, IReadOnlyList<NumaNode> NumaNodes)
{
    /// <summary>The record of <paramref name="topology"/>.</summary>
    public static TopologyRecord From(CpuTopology topology)
    {
        ArgumentNullException.ThrowIfNull(topology);
        return new TopologyRecord(topology.Processors, topology.CacheGroups, topology.NumaNodes);
    }
}
