using DivCon.Scheduling;

namespace DivCon.Harness.Reporting;

/// <summary>
/// What <c>divcon topology --json</c> prints: the processors this process may use, the cache groups, the NUMA nodes,
/// and the CPU budget with where each of its figures came from.
/// </summary>
/// <param name="Processors">The processors of the affinity mask, ascending.</param>
/// <param name="CacheGroups">Processors sharing a last-level cache, with its level and size (null when unknown).</param>
/// <param name="NumaNodes">The NUMA nodes and their processors.</param>
/// <param name="Budget">The CPU budget (allowed processors, cgroup quota, <c>DOTNET_PROCESSOR_COUNT</c>, the core count and why); null when not read.</param>
public sealed record TopologyRecord(IReadOnlyList<int> Processors, IReadOnlyList<CacheGroup> CacheGroups, IReadOnlyList<NumaNode> NumaNodes, CpuBudget? Budget = null);
