namespace DivCon.Scheduling;

/// <summary>
/// The cache group of each worker slot, and for each slot the other slots of its group (local victims) and of the
/// other groups (remote victims). Immutable; built once before the workers start.
/// </summary>
internal sealed class StealGroups
{
    private readonly int[] _groupOfSlot;

    private StealGroups(int[] groupOfSlot)
    {
        _groupOfSlot = groupOfSlot;
        int n = groupOfSlot.Length;
        Local = new int[n][];
        Remote = new int[n][];
        for (int s = 0; s < n; s++)
        {
            int g = groupOfSlot[s];
            Local[s] = Enumerable.Range(0, n).Where(v => v != s && groupOfSlot[v] == g).ToArray();
            Remote[s] = Enumerable.Range(0, n).Where(v => groupOfSlot[v] != g).ToArray();
        }
    }

    /// <summary>Per slot: the other slots of its group, ascending.</summary>
    public int[][] Local { get; }

    /// <summary>Per slot: the slots of the other groups, ascending.</summary>
    public int[][] Remote { get; }

    public int GroupCount => _groupOfSlot.Length == 0 ? 0 : _groupOfSlot.Max() + 1;

    public bool SameGroup(int a, int b) => _groupOfSlot[a] == _groupOfSlot[b];

    /// <summary>Every slot in one group: every steal is local.</summary>
    public static StealGroups Single(int slotCount) => new(new int[slotCount]);

    /// <summary>
    /// Groups from options: explicit slot groups when given (they must partition 0..slotCount-1); otherwise from a
    /// topology (the given one, or <see cref="CpuTopology.Detect"/> when <paramref name="detect"/> is true): slot i is
    /// on <paramref name="processorOfSlot"/>[i] when known, else on the topology's i-th processor (round-robin; an
    /// unpinned worker may run anywhere, so this only names the group it counts as). Null when neither applies.
    /// </summary>
    public static StealGroups? Resolve(
        int slotCount,
        IReadOnlyList<IReadOnlyList<int>>? slotGroups,
        CpuTopology? topology,
        bool detect,
        IReadOnlyList<int>? processorOfSlot,
        string paramName)
    {
        if (slotGroups is not null)
        {
            return FromSlotGroups(slotCount, slotGroups, paramName);
        }

        if (topology is null && !detect)
        {
            return null;
        }

        topology ??= CpuTopology.Detect();
        var groupOf = new int[slotCount];
        for (int s = 0; s < slotCount; s++)
        {
            int processor = processorOfSlot?[s] ?? topology.Processors[s % topology.Processors.Count];
            int g = IndexOfGroup(topology, processor);
            if (g < 0)
            {
                throw new ArgumentException(
                    $"Worker {s} is on processor {processor}, which is in none of the topology's cache groups; give a topology that covers the workers' processors.", paramName);
            }

            groupOf[s] = g;
        }

        return new StealGroups(Renumber(groupOf));
    }

    private static StealGroups FromSlotGroups(int slotCount, IReadOnlyList<IReadOnlyList<int>> slotGroups, string paramName)
    {
        var groupOf = new int[slotCount];
        Array.Fill(groupOf, -1);
        for (int g = 0; g < slotGroups.Count; g++)
        {
            IReadOnlyList<int> group = slotGroups[g] ?? throw new ArgumentException($"StealingGroups[{g}] is null; each group is a non-empty list of worker indexes.", paramName);
            if (group.Count == 0)
            {
                throw new ArgumentException($"StealingGroups[{g}] is empty; each group is a non-empty list of worker indexes.", paramName);
            }

            foreach (int s in group)
            {
                if (s < 0 || s >= slotCount)
                {
                    throw new ArgumentException($"StealingGroups[{g}] holds worker {s}; worker indexes go from 0 to {slotCount - 1}.", paramName);
                }

                if (groupOf[s] >= 0)
                {
                    throw new ArgumentException($"Worker {s} is in two stealing groups; the groups must hold every worker exactly once.", paramName);
                }

                groupOf[s] = g;
            }
        }

        int missing = Array.IndexOf(groupOf, -1);
        if (missing >= 0)
        {
            throw new ArgumentException($"Worker {missing} is in no stealing group; the groups must hold every worker 0..{slotCount - 1} exactly once.", paramName);
        }

        return new StealGroups(groupOf);
    }

    private static int IndexOfGroup(CpuTopology topology, int processor)
    {
        for (int g = 0; g < topology.CacheGroups.Count; g++)
        {
            foreach (int p in topology.CacheGroups[g].Processors)
            {
                if (p == processor)
                {
                    return g;
                }
            }
        }

        return -1;
    }

    // Group numbers 0..k-1 in order of first appearance (topology groups the workers don't use are dropped).
    private static int[] Renumber(int[] groupOf)
    {
        var map = new Dictionary<int, int>();
        return groupOf.Select(g => map.TryGetValue(g, out int r) ? r : map[g] = map.Count).ToArray();
    }
}
