using DivCon.Scheduling;

namespace DivCon.Tests.Budget;

/// <summary>Cgroup files held in a dictionary (absolute path → text) for parsing tests.</summary>
internal sealed class InMemoryCgroupFiles : ICgroupFiles
{
    private readonly Dictionary<string, string> _files = new(StringComparer.Ordinal);

    public InMemoryCgroupFiles With(string path, string text)
    {
        _files[path] = text;
        return this;
    }

    public string? ReadText(string path) => _files.TryGetValue(path, out string? text) ? text : null;

    /// <summary>A cgroup v2 node (systemd's unified layout) with the process in <paramref name="cgroupPath"/>.</summary>
    public static InMemoryCgroupFiles UnifiedV2(string cgroupPath) => new InMemoryCgroupFiles()
        .With("/proc/self/mountinfo",
            "22 1 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
            + "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n")
        .With("/proc/self/cgroup", $"0::{cgroupPath}\n");
}
