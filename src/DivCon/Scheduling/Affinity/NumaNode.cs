namespace DivCon.Scheduling;

/// <summary>
/// A NUMA node: processors attached to the same local memory (on Linux: <c>/sys/devices/system/node/nodeM/cpulist</c>).
/// </summary>
public sealed class NumaNode
{
    private readonly int[] _processors;

    /// <summary>Creates a NUMA node.</summary>
    /// <param name="id">The node id, non-negative.</param>
    /// <param name="processors">The distinct, non-negative processor ids on the node; at least one.</param>
    /// <exception cref="ArgumentOutOfRangeException">The id is negative.</exception>
    /// <exception cref="ArgumentException">The processor set is empty, has a duplicate or a negative id.</exception>
    public NumaNode(int id, IEnumerable<int> processors)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(id);
        Id = id;
        _processors = CpuTopology.ToSortedDistinctIds(processors, nameof(processors), $"NUMA node {id}");
    }

    /// <summary>The node id (the M of <c>nodeM</c>).</summary>
    public int Id { get; }

    /// <summary>The processors on the node, ascending.</summary>
    public IReadOnlyList<int> Processors => _processors;

    /// <inheritdoc/>
    public override string ToString() => $"node {Id}: {CpuList.Format(_processors)}";
}
