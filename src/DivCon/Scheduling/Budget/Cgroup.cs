using System.Globalization;

namespace DivCon.Scheduling;

/// <summary>
/// Finds this process's cgroup for a controller and parses the cgroup files the CPU budget needs. Pure functions of
/// file text (through <see cref="ICgroupFiles"/>); nothing here throws for missing or malformed content: problems are
/// added to a list of notes, and the value is treated as absent.
/// </summary>
/// <remarks>
/// <para>
/// <b>Which version.</b> As the .NET runtime decides (<c>src/coreclr/pal/src/misc/cgroup.cpp</c>, which looks at
/// the file system type of <c>/sys/fs/cgroup</c>): cgroup v2 when <c>/sys/fs/cgroup</c> is itself a <c>cgroup2</c>
/// mount (the "unified" layout); otherwise v1 when a v1 hierarchy has the controller (the "legacy" and "hybrid"
/// layouts, where a <c>cgroup2</c> mount at <c>/sys/fs/cgroup/unified</c> holds no controllers). Beyond the runtime:
/// with no v1 hierarchy for the controller, a <c>cgroup2</c> mount elsewhere is used.
/// </para>
/// <para>
/// <b>Which directory.</b> The mount point of the hierarchy (from <c>/proc/self/mountinfo</c>) joined with the
/// process's path in it (from <c>/proc/self/cgroup</c>: the v1 line listing the controller, or v2's <c>0::</c> line),
/// less the mount's own root when the path starts with it (a container that sees its own cgroup as the root of the
/// mount: root <c>/docker/87ee…</c>, path <c>/docker/87ee…/app</c>, directory <c>/sys/fs/cgroup/cpu/app</c>): the
/// runtime's rule.
/// </para>
/// </remarks>
internal static class Cgroup
{
    internal const string MountInfoPath = "/proc/self/mountinfo";
    internal const string ProcCgroupPath = "/proc/self/cgroup";
    internal const string DefaultMountPoint = "/sys/fs/cgroup";

    /// <summary>One line of <c>/proc/self/mountinfo</c>, only what is needed.</summary>
    internal sealed record Mount(string Root, string MountPoint, string FileSystemType, IReadOnlyList<string> SuperOptions);

    /// <summary>One line of <c>/proc/self/cgroup</c>: <c>hierarchy-id:controller,list:/path</c>.</summary>
    internal sealed record Membership(int HierarchyId, IReadOnlyList<string> Controllers, string Path);

    /// <summary>A controller's hierarchy and this process's directory in it.</summary>
    /// <param name="Version">1 or 2.</param>
    /// <param name="MountPoint">Where the hierarchy is mounted, e.g. <c>/sys/fs/cgroup/cpu</c>.</param>
    /// <param name="Directory">The process's cgroup directory, at or below <paramref name="MountPoint"/>.</param>
    internal sealed record Location(int Version, string MountPoint, string Directory)
    {
        /// <summary>The process's directory, then each parent up to and including the mount point.</summary>
        public IEnumerable<string> DirectoriesUpToMount()
        {
            // Directory is MountPoint or below it (Locate builds it so); stop at the mount point, whose parent is no
            // longer in the hierarchy.
            for (string current = Directory; ; current = Parent(current))
            {
                yield return current;
                if (current.Length <= MountPoint.Length)
                {
                    yield break;
                }
            }
        }

        private static string Parent(string path)
        {
            int slash = path.LastIndexOf('/');
            return slash <= 0 ? "/" : path[..slash];
        }
    }

    /// <summary>A quota as written in the files: unlimited, a quota over a period, or unreadable.</summary>
    internal readonly record struct QuotaText(bool Unlimited, long QuotaMicroseconds, long PeriodMicroseconds, string? Problem)
    {
        public bool IsLimit => !Unlimited && Problem is null;

        public static QuotaText NoLimit => new(true, 0, 0, null);

        public static QuotaText Limit(long quota, long period) => new(false, quota, period, null);

        public static QuotaText Malformed(string problem) => new(false, 0, 0, problem);
    }

    /// <summary>
    /// Locates this process's cgroup for a v1 controller (<paramref name="v1Controller"/>, e.g. <c>cpu</c> or
    /// <c>cpuset</c>) or, under cgroup v2, its single cgroup. Null, with a note, when there is none.
    /// </summary>
    internal static Location? Locate(ICgroupFiles files, string v1Controller, List<string> notes)
    {
        string? mountInfo = files.ReadText(MountInfoPath);
        if (mountInfo is null)
        {
            notes.Add($"{MountInfoPath} is not readable: no cgroup information (not Linux, or /proc is not mounted).");
            return null;
        }

        IReadOnlyList<Mount> mounts = ParseMountInfo(mountInfo, notes);
        Mount? unified = mounts.LastOrDefault(m => m.FileSystemType == "cgroup2" && m.MountPoint == DefaultMountPoint);
        Mount? v1 = unified is null
            ? mounts.LastOrDefault(m => m.FileSystemType == "cgroup" && m.SuperOptions.Contains(v1Controller))
            : null;
        Mount? v2 = unified ?? (v1 is null ? mounts.LastOrDefault(m => m.FileSystemType == "cgroup2") : null);
        Mount? mount = v1 ?? v2;
        if (mount is null)
        {
            notes.Add($"No cgroup hierarchy with the {v1Controller} controller is mounted ({MountInfoPath} lists no cgroup v1 mount with it and no cgroup2 mount).");
            return null;
        }

        int version = v1 is not null ? 1 : 2;
        string? cgroupText = files.ReadText(ProcCgroupPath);
        if (cgroupText is null)
        {
            notes.Add($"{ProcCgroupPath} is not readable: the process's cgroup is unknown.");
            return null;
        }

        Membership? member = ParseProcCgroup(cgroupText, notes)
            .LastOrDefault(m => version == 1 ? m.Controllers.Contains(v1Controller) : m.HierarchyId == 0 && m.Controllers.Count == 0);
        if (member is null)
        {
            notes.Add(version == 1
                ? $"{ProcCgroupPath} has no line for the {v1Controller} controller, although {mount.MountPoint} mounts it."
                : $"{ProcCgroupPath} has no cgroup v2 line (0::/path), although {mount.MountPoint} is a cgroup2 mount.");
            return null;
        }

        return new Location(version, mount.MountPoint, ResolveDirectory(mount, member.Path));
    }

    /// <summary>The runtime's join of a mount point and a cgroup path (see the type's remarks).</summary>
    internal static string ResolveDirectory(Mount mount, string cgroupPath)
    {
        string relative = cgroupPath;
        if (mount.Root != "/" && (cgroupPath == mount.Root || cgroupPath.StartsWith(mount.Root + "/", StringComparison.Ordinal)))
        {
            relative = cgroupPath[mount.Root.Length..];
        }

        relative = relative.TrimEnd('/');
        string mountPoint = mount.MountPoint.TrimEnd('/');
        return relative.Length == 0 ? (mountPoint.Length == 0 ? "/" : mountPoint) : mountPoint + (relative.StartsWith('/') ? relative : "/" + relative);
    }

    /// <summary>
    /// Parses <c>/proc/self/mountinfo</c> (proc(5)): <c>id parent major:minor root mount-point options [optional…] -
    /// fstype source super-options</c>. Octal escapes (<c>\040</c> for a space) are decoded. A line that does not fit
    /// is skipped with a note.
    /// </summary>
    internal static IReadOnlyList<Mount> ParseMountInfo(string text, List<string> notes)
    {
        var mounts = new List<Mount>();
        foreach (string line in Lines(text))
        {
            string[] fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            int separator = Array.IndexOf(fields, "-");
            if (fields.Length < 6 || separator < 6 || separator + 3 > fields.Length)
            {
                notes.Add($"{MountInfoPath}: skipped a line that is not 'id parent dev root mount-point options … - type source super-options': '{line}'.");
                continue;
            }

            string[] superOptions = separator + 3 < fields.Length ? fields[separator + 3].Split(',') : [];
            mounts.Add(new Mount(Unescape(fields[3]), Unescape(fields[4]), fields[separator + 1], superOptions));
        }

        return mounts;
    }

    /// <summary>
    /// Parses <c>/proc/self/cgroup</c> (cgroups(7)): <c>hierarchy-id:controller-list:path</c>; v2's line is
    /// <c>0::/path</c> (an empty list). A line that does not fit is skipped with a note.
    /// </summary>
    internal static IReadOnlyList<Membership> ParseProcCgroup(string text, List<string> notes)
    {
        var members = new List<Membership>();
        foreach (string line in Lines(text))
        {
            // The path may itself contain ':' (a v1 path is free text), so split on the first two only.
            int first = line.IndexOf(':');
            int second = first < 0 ? -1 : line.IndexOf(':', first + 1);
            if (second < 0
                || !int.TryParse(line.AsSpan(0, first), NumberStyles.None, CultureInfo.InvariantCulture, out int id)
                || second + 1 >= line.Length || line[second + 1] != '/')
            {
                notes.Add($"{ProcCgroupPath}: skipped a line that is not 'id:controllers:/path': '{line}'.");
                continue;
            }

            string list = line[(first + 1)..second];
            members.Add(new Membership(id, list.Length == 0 ? [] : list.Split(','), line[(second + 1)..]));
        }

        return members;
    }

    /// <summary>
    /// cgroup v1's <c>cpu.cfs_quota_us</c> and <c>cpu.cfs_period_us</c>: a quota of -1 means no limit (as does any
    /// quota the runtime would not read: zero or below); the period must be positive.
    /// </summary>
    internal static QuotaText ParseV1Quota(string quotaText, string periodText)
    {
        if (!long.TryParse(quotaText.Trim(), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out long quota))
        {
            return QuotaText.Malformed($"cpu.cfs_quota_us holds '{quotaText.Trim()}', not a whole number of microseconds");
        }

        if (quota <= 0)
        {
            return QuotaText.NoLimit;
        }

        if (!long.TryParse(periodText.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out long period) || period <= 0)
        {
            return QuotaText.Malformed($"cpu.cfs_period_us holds '{periodText.Trim()}', not a positive whole number of microseconds");
        }

        return QuotaText.Limit(quota, period);
    }

    /// <summary>cgroup v2's <c>cpu.max</c>: <c>$MAX $PERIOD</c>, where <c>$MAX</c> is <c>max</c> for no limit.</summary>
    internal static QuotaText ParseV2Max(string text)
    {
        string[] parts = text.Trim().Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (parts.Length != 2)
        {
            return QuotaText.Malformed($"cpu.max holds '{text.Trim()}', not '<quota|max> <period>'");
        }

        if (!long.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out long period) || period <= 0)
        {
            return QuotaText.Malformed($"cpu.max holds '{text.Trim()}': the period '{parts[1]}' is not a positive whole number of microseconds");
        }

        if (parts[0] == "max")
        {
            return QuotaText.NoLimit;
        }

        if (!long.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out long quota) || quota <= 0)
        {
            return QuotaText.Malformed($"cpu.max holds '{text.Trim()}': the quota '{parts[0]}' is neither 'max' nor a positive whole number of microseconds");
        }

        return QuotaText.Limit(quota, period);
    }

    /// <summary>
    /// The throttling counters of <c>cpu.stat</c>: <c>nr_periods</c>, <c>nr_throttled</c> and the throttled time,
    /// <c>throttled_time</c> in nanoseconds (v1) or <c>throttled_usec</c> in microseconds (v2). Other keys
    /// (<c>usage_usec</c>, <c>nr_bursts</c>, …) are ignored. Null, with the problem, when a counter is missing or not
    /// a number.
    /// </summary>
    internal static (long Periods, long Throttled, TimeSpan ThrottledTime)? ParseCpuStat(string text, out string? problem)
    {
        long? periods = null, throttled = null;
        TimeSpan? time = null;
        foreach (string line in Lines(text))
        {
            string[] kv = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (kv.Length != 2 || !long.TryParse(kv[1], NumberStyles.None, CultureInfo.InvariantCulture, out long value))
            {
                continue;
            }

            switch (kv[0])
            {
                case "nr_periods": periods = value; break;
                case "nr_throttled": throttled = value; break;
                case "throttled_time": time = TimeSpan.FromTicks(value / 100); break;          // ns → 100 ns ticks
                case "throttled_usec": time = TimeSpan.FromTicks(value * 10); break;           // µs → 100 ns ticks
            }
        }

        if (periods is null || throttled is null || time is null)
        {
            problem = "cpu.stat has no nr_periods, nr_throttled and throttled_time (v1) or throttled_usec (v2) counters"
                + " (no CFS bandwidth control here, or the content is not 'key value' lines)";
            return null;
        }

        problem = null;
        return (periods.Value, throttled.Value, time.Value);
    }

    private static IEnumerable<string> Lines(string text) =>
        text.Split('\n').Select(l => l.TrimEnd('\r')).Where(l => l.Trim().Length > 0);

    private static string Unescape(string field)
    {
        if (!field.Contains('\\', StringComparison.Ordinal))
        {
            return field;
        }

        var sb = new System.Text.StringBuilder(field.Length);
        for (int i = 0; i < field.Length; i++)
        {
            if (field[i] == '\\' && IsOctal(field, i + 1))
            {
                sb.Append((char)Convert.ToInt32(field.Substring(i + 1, 3), 8));
                i += 3;
            }
            else
            {
                sb.Append(field[i]);
            }
        }

        return sb.ToString();
    }

    private static bool IsOctal(string s, int start) =>
        start + 3 <= s.Length && s[start] is >= '0' and <= '7' && s[start + 1] is >= '0' and <= '7' && s[start + 2] is >= '0' and <= '7';
}
