using System.Globalization;

namespace DivCon.Scheduling;

public sealed partial class CpuTopology
{
    /// <summary>Where Linux describes processors (<c>cpu/</c>) and NUMA nodes (<c>node/</c>).</summary>
    internal const string LinuxSysfsRoot = "/sys/devices/system";

    /// <summary>
    /// Reads a topology from a sysfs tree laid out like <c>/sys/devices/system</c> (a real one or a fake one written
    /// by a test), restricted to <paramref name="allowed"/>. Never throws for a missing or unreadable file: what it
    /// cannot read it treats as online and flat.
    /// </summary>
    /// <param name="systemRoot">The folder holding <c>cpu/</c> and <c>node/</c>.</param>
    /// <param name="allowed">The processors this process may use (the affinity mask).</param>
    /// <remarks>
    /// <list type="bullet">
    /// <item>Online: <c>cpu/cpuN/online</c> holding 0 excludes N; a missing file (always so for cpu0) means online.</item>
    /// <item>Cache group of N: the highest-level data or unified cache in <c>cpu/cpuN/cache/indexK/</c>
    /// (<c>level</c>, <c>type</c>, <c>size</c>, <c>shared_cpu_list</c>), cut to the allowed processors. Without cache
    /// information: the package (<c>topology/package_cpus_list</c>, older kernels <c>core_siblings_list</c>), with level
    /// unknown; without that either, one group of every such processor.</item>
    /// <item>NUMA node: the <c>node/nodeM/cpulist</c> holding N; none (a kernel without NUMA) means node 0.</item>
    /// </list>
    /// </remarks>
    internal static CpuTopology FromSysfs(string systemRoot, IReadOnlyList<int> allowed)
    {
        ArgumentNullException.ThrowIfNull(systemRoot);
        int[] allowedIds = ToSortedDistinctIds(allowed, nameof(allowed), "The allowed set");
        string cpuRoot = Path.Combine(systemRoot, "cpu");

        int[] processors = allowedIds.Where(p => ReadText(Path.Combine(cpuRoot, Cpu(p), "online")) != "0").ToArray();
        if (processors.Length == 0)
        {
            // The process is running, so one of its processors is online: sysfs contradicts the kernel's own mask.
            // Trust the mask.
            processors = allowedIds;
        }

        return new CpuTopology(processors, ReadCacheGroups(cpuRoot, processors), ReadNumaNodes(Path.Combine(systemRoot, "node"), processors));
    }

    private static List<CacheGroup> ReadCacheGroups(string cpuRoot, int[] processors)
    {
        var present = new HashSet<int>(processors);
        var assigned = new HashSet<int>();
        var groups = new List<CacheGroup>();
        var unknown = new List<int>();
        foreach (int p in processors)
        {
            if (assigned.Contains(p))
            {
                continue;
            }

            SharedCache? cache = ReadLastLevelCache(cpuRoot, p) ?? ReadPackage(cpuRoot, p);
            if (cache is null)
            {
                unknown.Add(p);
                assigned.Add(p);
                continue;
            }

            // Members: p plus those sharing with it that are allowed and not yet placed, so the groups stay a
            // partition even if sysfs lists were inconsistent with each other.
            var members = new List<int> { p };
            members.AddRange(cache.SharedWith.Where(q => q != p && present.Contains(q) && !assigned.Contains(q)));
            assigned.UnionWith(members);
            groups.Add(new CacheGroup(members, cache.Level, cache.SizeBytes));
        }

        if (unknown.Count > 0)
        {
            groups.Add(new CacheGroup(unknown));
        }

        return groups;
    }

    /// <summary>The highest-level data or unified cache of processor <paramref name="p"/>, or null when none is described.</summary>
    private static SharedCache? ReadLastLevelCache(string cpuRoot, int p)
    {
        string cacheDir = Path.Combine(cpuRoot, Cpu(p), "cache");
        SharedCache? best = null;
        foreach (string indexDir in EnumerateDirectories(cacheDir, "index*"))
        {
            if (!int.TryParse(ReadText(Path.Combine(indexDir, "level")), NumberStyles.None, CultureInfo.InvariantCulture, out int level)
                || level <= 0
                || string.Equals(ReadText(Path.Combine(indexDir, "type")), "Instruction", StringComparison.OrdinalIgnoreCase)
                || !CpuList.TryParse(ReadText(Path.Combine(indexDir, "shared_cpu_list")), out IReadOnlyList<int> shared))
            {
                continue;
            }

            if (best is null || level > best.Level)
            {
                best = new SharedCache(level, ParseSize(ReadText(Path.Combine(indexDir, "size"))), shared);
            }
        }

        return best;
    }

    private static SharedCache? ReadPackage(string cpuRoot, int p)
    {
        string topologyDir = Path.Combine(cpuRoot, Cpu(p), "topology");
        foreach (string file in (string[])["package_cpus_list", "core_siblings_list"])
        {
            if (CpuList.TryParse(ReadText(Path.Combine(topologyDir, file)), out IReadOnlyList<int> package) && package.Count > 0)
            {
                return new SharedCache(null, null, package);
            }
        }

        return null;
    }

    private static List<NumaNode> ReadNumaNodes(string nodeRoot, int[] processors)
    {
        var nodeOf = new Dictionary<int, int>();
        foreach (string dir in EnumerateDirectories(nodeRoot, "node*"))
        {
            if (!int.TryParse(Path.GetFileName(dir).AsSpan(4), NumberStyles.None, CultureInfo.InvariantCulture, out int id)
                || !CpuList.TryParse(ReadText(Path.Combine(dir, "cpulist")), out IReadOnlyList<int> cpus))
            {
                continue;
            }

            foreach (int p in cpus)
            {
                nodeOf.TryAdd(p, id);
            }
        }

        // A processor in no node's list (or no node folder at all: a kernel built without NUMA) is on node 0.
        return processors.GroupBy(p => nodeOf.GetValueOrDefault(p, 0))
            .Select(g => new NumaNode(g.Key, g))
            .ToList();
    }

    /// <summary>
    /// A sysfs cache size: a number with an optional K, M or G suffix (binary multiples, as the kernel means them),
    /// e.g. <c>32768K</c>. Null when absent or malformed.
    /// </summary>
    internal static long? ParseSize(string? text)
    {
        if (string.IsNullOrEmpty(text))
        {
            return null;
        }

        long multiplier = char.ToUpperInvariant(text[^1]) switch
        {
            'K' => 1L << 10,
            'M' => 1L << 20,
            'G' => 1L << 30,
            _ => 1,
        };
        string digits = multiplier == 1 ? text : text[..^1];
        return long.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out long value) && value > 0 && value <= long.MaxValue / multiplier
            ? value * multiplier
            : null;
    }

    private static string Cpu(int p) => "cpu" + p.ToString(CultureInfo.InvariantCulture);

    /// <summary>The trimmed content of a file, or null when it is missing or unreadable (sysfs files can vanish under hotplug).</summary>
    private static string? ReadText(string path)
    {
        try
        {
            return File.Exists(path) ? File.ReadAllText(path).Trim() : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    private static IEnumerable<string> EnumerateDirectories(string path, string pattern)
    {
        try
        {
            return Directory.Exists(path) ? Directory.GetDirectories(path, pattern) : [];
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }

    private sealed record SharedCache(int? Level, long? SizeBytes, IReadOnlyList<int> SharedWith);
}
