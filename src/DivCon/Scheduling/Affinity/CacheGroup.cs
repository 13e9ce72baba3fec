namespace DivCon.Scheduling;

/// <summary>
/// Processors that share a last-level cache (on Linux: the highest-level data or unified cache in
/// <c>/sys/devices/system/cpu/cpuN/cache</c>). Threads on the same group share that cache's capacity; threads on
/// different groups share only memory bandwidth.
/// </summary>
public sealed class CacheGroup
{
    private readonly int[] _processors;

    /// <summary>Creates a cache group.</summary>
    /// <param name="processors">The distinct, non-negative processor ids that share the cache; at least one.</param>
    /// <param name="level">The cache level (e.g. 3 for an L3), or <see langword="null"/> when unknown.</param>
    /// <param name="sizeBytes">The cache size in bytes, or <see langword="null"/> when unknown.</param>
    /// <exception cref="ArgumentException">The processor set is empty, has a duplicate or a negative id.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The level or the size is not positive.</exception>
    public CacheGroup(IEnumerable<int> processors, int? level = null, long? sizeBytes = null)
    {
        _processors = CpuTopology.ToSortedDistinctIds(processors, nameof(processors), "A cache group");
        if (level is { } l)
        {
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(l, nameof(level));
        }

        if (sizeBytes is { } s)
        {
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(s, nameof(sizeBytes));
        }

        Level = level;
        SizeBytes = sizeBytes;
    }

    /// <summary>The processors sharing the cache, ascending.</summary>
    public IReadOnlyList<int> Processors => _processors;

    /// <summary>
    /// The level of the shared cache (2 = L2, 3 = L3), or <see langword="null"/> when the machine reports no cache
    /// information (the group is then a whole package, or every processor when even that is unknown).
    /// </summary>
    public int? Level { get; }

    /// <summary>The size of the shared cache in bytes, or <see langword="null"/> when unknown.</summary>
    public long? SizeBytes { get; }

    /// <inheritdoc/>
    public override string ToString() =>
        $"{(Level is { } l ? $"L{l}" : "cache level unknown")} {CpuList.Format(_processors)}";
}
