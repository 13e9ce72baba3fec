using System.Globalization;

namespace DivCon.Scheduling;

/// <summary>
/// The processors this process may use, grouped by shared last-level cache and by NUMA node, and the two ways of
/// choosing n of them from the thesis §5.1.3: contiguous (packed into as few cache groups as possible: constructive
/// cache sharing) and dispersed (spread across NUMA nodes and cache groups: more memory bandwidth and cache in total).
/// Immutable.
/// </summary>
/// <remarks>
/// Cache groups partition <see cref="Processors"/>, and so do NUMA nodes; the two partitions are independent (a cache
/// group may span NUMA nodes, as with sub-NUMA clustering). Every list is ascending; groups are ordered by their
/// lowest processor, nodes by id.
/// </remarks>
public sealed partial class CpuTopology
{
    private readonly int[] _processors;
    private readonly CacheGroup[] _cacheGroups;
    private readonly NumaNode[] _numaNodes;
    private readonly Dictionary<int, int> _cacheGroupIndex = [];
    private readonly Dictionary<int, int> _numaNodeIndex = [];

    /// <summary>Creates a topology from explicit data (a synthetic machine for tests and simulations, or a parsed one).</summary>
    /// <param name="processors">The distinct, non-negative processor ids; at least one.</param>
    /// <param name="cacheGroups">Groups that together hold every processor exactly once.</param>
    /// <param name="numaNodes">Nodes with distinct ids that together hold every processor exactly once.</param>
    /// <exception cref="ArgumentException">
    /// The processors are empty or invalid, or the groups or nodes do not partition them (a processor missing, in two
    /// groups, or unknown); the message names the processor.
    /// </exception>
    public CpuTopology(IEnumerable<int> processors, IEnumerable<CacheGroup> cacheGroups, IEnumerable<NumaNode> numaNodes)
    {
        ArgumentNullException.ThrowIfNull(cacheGroups);
        ArgumentNullException.ThrowIfNull(numaNodes);
        _processors = ToSortedDistinctIds(processors, nameof(processors), "A topology");
        _cacheGroups = cacheGroups.OrderBy(g => g.Processors[0]).ToArray();
        _numaNodes = numaNodes.OrderBy(n => n.Id).ToArray();

        for (int i = 0; i < _cacheGroups.Length; i++)
        {
            foreach (int p in _cacheGroups[i].Processors)
            {
                AddToPartition(_cacheGroupIndex, p, i, nameof(cacheGroups), "cache group");
            }
        }

        for (int i = 0; i < _numaNodes.Length; i++)
        {
            if (i > 0 && _numaNodes[i].Id == _numaNodes[i - 1].Id)
            {
                throw new ArgumentException($"NUMA node id {_numaNodes[i].Id} appears twice; node ids must be distinct.", nameof(numaNodes));
            }

            foreach (int p in _numaNodes[i].Processors)
            {
                AddToPartition(_numaNodeIndex, p, i, nameof(numaNodes), "NUMA node");
            }
        }

        CheckCovers(_cacheGroupIndex, nameof(cacheGroups), "cache group");
        CheckCovers(_numaNodeIndex, nameof(numaNodes), "NUMA node");
    }

    /// <summary>The processors, ascending.</summary>
    public IReadOnlyList<int> Processors => _processors;

    /// <summary>The groups of processors sharing a last-level cache, ordered by lowest processor.</summary>
    public IReadOnlyList<CacheGroup> CacheGroups => _cacheGroups;

    /// <summary>The NUMA nodes, ordered by id.</summary>
    public IReadOnlyList<NumaNode> NumaNodes => _numaNodes;

    /// <summary>
    /// The topology of the processors this process may use (<see cref="ThreadAffinity.GetProcessAffinity"/>). On Linux
    /// it is read from <c>/sys/devices/system/cpu</c> and <c>/sys/devices/system/node</c>; missing files count as
    /// "online" and "flat" (no cache folder: processors grouped by package, or all in one group; no node folder: one
    /// node 0). Elsewhere it is flat: one cache group of unknown level and one NUMA node.
    /// </summary>
    public static CpuTopology Detect()
    {
        IReadOnlyList<int> allowed = ThreadAffinity.GetProcessAffinity();
        return OperatingSystem.IsLinux() ? FromSysfs(LinuxSysfsRoot, allowed) : Flat(allowed);
    }

    /// <summary>A topology with no structure: one cache group of unknown level and one NUMA node (id 0).</summary>
    /// <param name="processors">The distinct, non-negative processor ids; at least one.</param>
    public static CpuTopology Flat(IEnumerable<int> processors)
    {
        int[] ids = ToSortedDistinctIds(processors, nameof(processors), "A topology");
        return new CpuTopology(ids, [new CacheGroup(ids)], [new NumaNode(0, ids)]);
    }

    /// <summary>
    /// A synthetic machine with processors 0..<paramref name="processorCount"/>-1 split into equal consecutive cache
    /// groups and equal consecutive NUMA nodes, e.g. <c>Uniform(8, 2, 2)</c>: L3 groups 0-3 and 4-7, nodes 0-3 and 4-7;
    /// <c>Uniform(64, 4, 4)</c> is the thesis's 64-core machine of four 16-core chips.
    /// </summary>
    /// <param name="processorCount">How many processors; positive.</param>
    /// <param name="cacheGroupCount">How many cache groups; positive and divides <paramref name="processorCount"/>.</param>
    /// <param name="numaNodeCount">How many NUMA nodes; positive and divides <paramref name="processorCount"/>.</param>
    /// <param name="cacheLevel">The level given to every cache group.</param>
    public static CpuTopology Uniform(int processorCount, int cacheGroupCount, int numaNodeCount, int cacheLevel = 3)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(processorCount);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(cacheGroupCount);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(numaNodeCount);
        if (processorCount % cacheGroupCount != 0 || processorCount % numaNodeCount != 0)
        {
            throw new ArgumentException(
                $"{processorCount} processors cannot be split evenly into {cacheGroupCount} cache groups and {numaNodeCount} NUMA nodes; both counts must divide the processor count.",
                nameof(processorCount));
        }

        int perGroup = processorCount / cacheGroupCount, perNode = processorCount / numaNodeCount;
        return new CpuTopology(
            Enumerable.Range(0, processorCount),
            Enumerable.Range(0, cacheGroupCount).Select(g => new CacheGroup(Enumerable.Range(g * perGroup, perGroup), cacheLevel)),
            Enumerable.Range(0, numaNodeCount).Select(n => new NumaNode(n, Enumerable.Range(n * perNode, perNode))));
    }

    /// <summary>
    /// The same machine seen through a subset of its processors (e.g. the ones still free): each group and node keeps
    /// only those processors, and empty ones are dropped.
    /// </summary>
    /// <param name="processors">A non-empty subset of <see cref="Processors"/>.</param>
    /// <exception cref="ArgumentException">The subset is empty, has a duplicate, or a processor not in this topology.</exception>
    public CpuTopology Restrict(IEnumerable<int> processors)
    {
        int[] subset = ToSortedDistinctIds(processors, nameof(processors), "A restriction");
        foreach (int p in subset)
        {
            if (!_cacheGroupIndex.ContainsKey(p))
            {
                throw new ArgumentException(
                    $"Processor {p} is not in this topology; allowed: {CpuList.Format(_processors)}.", nameof(processors));
            }
        }

        var keep = new HashSet<int>(subset);
        return new CpuTopology(
            subset,
            _cacheGroups.Where(g => g.Processors.Any(keep.Contains))
                .Select(g => new CacheGroup(g.Processors.Where(keep.Contains), g.Level, g.SizeBytes)),
            _numaNodes.Where(n => n.Processors.Any(keep.Contains))
                .Select(n => new NumaNode(n.Id, n.Processors.Where(keep.Contains))));
    }

    /// <summary>The cache group holding <paramref name="processorId"/>.</summary>
    /// <exception cref="ArgumentException">The processor is not in this topology.</exception>
    public CacheGroup GetCacheGroup(int processorId) => _cacheGroups[IndexOf(_cacheGroupIndex, processorId)];

    /// <summary>The NUMA node holding <paramref name="processorId"/>.</summary>
    /// <exception cref="ArgumentException">The processor is not in this topology.</exception>
    public NumaNode GetNumaNode(int processorId) => _numaNodes[IndexOf(_numaNodeIndex, processorId)];

    /// <summary>
    /// Chooses <paramref name="n"/> processors packed into as few cache groups as possible (and, among those choices,
    /// as few NUMA nodes, then the lowest-numbered): the thesis's default "contiguous" allocation (§5.1.3). The result
    /// is ascending; on a machine numbered by cache group it is the first n processors.
    /// </summary>
    /// <param name="n">How many processors; from 1 to <see cref="Processors"/>.Count.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="n"/> is outside 1..Processors.Count.</exception>
    public IReadOnlyList<int> SelectContiguous(int n)
    {
        CheckCount(n);

        // Candidates: runs of consecutive groups (in order), each extended just until it holds n processors. The best
        // run has the fewest groups, then the fewest NUMA nodes, then the lowest start.
        int bestStart = -1, bestEnd = -1, bestGroups = int.MaxValue, bestNodes = int.MaxValue;
        for (int start = 0; start < _cacheGroups.Length; start++)
        {
            int total = 0, end = start;
            while (end < _cacheGroups.Length && (total += _cacheGroups[end].Processors.Count) < n)
            {
                end++;
            }

            if (end == _cacheGroups.Length)
            {
                break; // This and every later start run out of processors.
            }

            int groups = end - start + 1;
            int nodes = _cacheGroups[start..(end + 1)].SelectMany(g => g.Processors).Select(p => _numaNodeIndex[p]).Distinct().Count();
            if (groups < bestGroups || (groups == bestGroups && nodes < bestNodes))
            {
                (bestStart, bestEnd, bestGroups, bestNodes) = (start, end, groups, nodes);
            }
        }

        // Fewest groups that can hold n at all: the largest ones. A consecutive run can need more when small groups sit
        // between large ones (only with an uneven process mask); then take the largest groups, earliest first on ties.
        int[] bySize = Enumerable.Range(0, _cacheGroups.Length)
            .OrderByDescending(i => _cacheGroups[i].Processors.Count).ThenBy(i => i).ToArray();
        int minGroups = 0;
        for (int total = 0; total < n; minGroups++)
        {
            total += _cacheGroups[bySize[minGroups]].Processors.Count;
        }

        IEnumerable<int> chosen = bestGroups <= minGroups
            ? Enumerable.Range(bestStart, bestEnd - bestStart + 1)
            : bySize.Take(minGroups).Order();

        // Fill whole groups in order; only the last chosen group can be partly used.
        return chosen.SelectMany(i => _cacheGroups[i].Processors).Take(n).Order().ToArray();
    }

    /// <summary>
    /// Chooses <paramref name="n"/> processors spread as evenly as possible: round-robin over NUMA nodes, and within a
    /// node round-robin over its cache groups, lowest processors first: the thesis's "dispersed" allocation
    /// (§5.1.3, Figure 5.3: 8 threads on four 16-core chips take 2 processors on each chip). The result is ascending.
    /// </summary>
    /// <param name="n">How many processors; from 1 to <see cref="Processors"/>.Count.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="n"/> is outside 1..Processors.Count.</exception>
    public IReadOnlyList<int> SelectDispersed(int n)
    {
        CheckCount(n);

        // Per node, its processors in the order that spreads them over the node's cache groups: the first processor of
        // each group, then the second of each, and so on. Groups are cut at node boundaries (a group spanning two
        // nodes counts in each).
        var perNode = new List<Queue<int>>(_numaNodes.Length);
        foreach (NumaNode node in _numaNodes)
        {
            List<int>[] groups = node.Processors.GroupBy(p => _cacheGroupIndex[p]).OrderBy(g => g.Key)
                .Select(g => g.ToList()).ToArray();
            var order = new Queue<int>(node.Processors.Count);
            for (int round = 0; order.Count < node.Processors.Count; round++)
            {
                foreach (List<int> group in groups)
                {
                    if (round < group.Count)
                    {
                        order.Enqueue(group[round]);
                    }
                }
            }

            perNode.Add(order);
        }

        var result = new List<int>(n);
        while (result.Count < n)
        {
            foreach (Queue<int> node in perNode)
            {
                if (result.Count < n && node.Count > 0)
                {
                    result.Add(node.Dequeue());
                }
            }
        }

        result.Sort();
        return result;
    }

    /// <summary>Validates a processor-id sequence and returns it ascending; used by the topology types' constructors.</summary>
    internal static int[] ToSortedDistinctIds(IEnumerable<int> processors, string paramName, string what)
    {
        ArgumentNullException.ThrowIfNull(processors, paramName);
        int[] ids = processors.ToArray();
        Array.Sort(ids);
        if (ids.Length == 0)
        {
            throw new ArgumentException($"{what} needs at least one processor; the set is empty.", paramName);
        }

        if (ids[0] < 0)
        {
            throw new ArgumentException($"{what} has a negative processor id ({ids[0]}); ids are 0 or more.", paramName);
        }

        for (int i = 1; i < ids.Length; i++)
        {
            if (ids[i] == ids[i - 1])
            {
                throw new ArgumentException($"{what} lists processor {ids[i]} twice; each processor appears once.", paramName);
            }
        }

        return ids;
    }

    private void AddToPartition(Dictionary<int, int> index, int processor, int part, string paramName, string what)
    {
        if (Array.BinarySearch(_processors, processor) < 0)
        {
            throw new ArgumentException(
                $"Processor {processor} is in a {what} but not in the topology's processors ({CpuList.Format(_processors)}).", paramName);
        }

        if (!index.TryAdd(processor, part))
        {
            throw new ArgumentException($"Processor {processor} is in two {what}s; each processor belongs to exactly one.", paramName);
        }
    }

    private void CheckCovers(Dictionary<int, int> index, string paramName, string what)
    {
        int[] missing = _processors.Where(p => !index.ContainsKey(p)).ToArray();
        if (missing.Length > 0)
        {
            throw new ArgumentException(
                $"Processors {CpuList.Format(missing)} are in no {what}; every processor belongs to exactly one.", paramName);
        }
    }

    private int IndexOf(Dictionary<int, int> index, int processorId) =>
        index.TryGetValue(processorId, out int i)
            ? i
            : throw new ArgumentException(
                $"Processor {processorId.ToString(CultureInfo.InvariantCulture)} is not in this topology; allowed: {CpuList.Format(_processors)}.",
                nameof(processorId));

    private void CheckCount(int n)
    {
        if (n < 1 || n > _processors.Length)
        {
            throw new ArgumentOutOfRangeException(
                nameof(n), n, $"Can choose from 1 to {_processors.Length} processors (those of this topology: {CpuList.Format(_processors)}).");
        }
    }
}
