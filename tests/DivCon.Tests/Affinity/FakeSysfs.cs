using System.Globalization;

namespace DivCon.Tests.Affinity;

/// <summary>A fake <c>/sys/devices/system</c> tree in a temporary folder, deleted on dispose.</summary>
internal sealed class FakeSysfs : IDisposable
{
    public FakeSysfs()
    {
        Root = Directory.CreateTempSubdirectory("divcon-sysfs-").FullName;
    }

    public string Root { get; }

    /// <summary>Creates <c>cpu/cpuN</c> for each id, with an <c>online</c> file except for cpu0 (as on real kernels).</summary>
    public FakeSysfs Cpus(int count)
    {
        for (int p = 0; p < count; p++)
        {
            string dir = CpuDir(p);
            Directory.CreateDirectory(dir);
            if (p > 0)
            {
                File.WriteAllText(Path.Combine(dir, "online"), "1\n");
            }
        }

        return this;
    }

    public FakeSysfs Offline(int p)
    {
        File.WriteAllText(Path.Combine(CpuDir(p), "online"), "0\n");
        return this;
    }

    /// <summary>Writes <c>cpu/cpuN/cache/indexK</c> with the given fields; <paramref name="size"/> null = no size file.</summary>
    public FakeSysfs Cache(int p, int index, int level, string type, string? size, string sharedCpuList)
    {
        string dir = Path.Combine(CpuDir(p), "cache", "index" + index.ToString(CultureInfo.InvariantCulture));
        Directory.CreateDirectory(dir);
        File.WriteAllText(Path.Combine(dir, "level"), level.ToString(CultureInfo.InvariantCulture) + "\n");
        File.WriteAllText(Path.Combine(dir, "type"), type + "\n");
        File.WriteAllText(Path.Combine(dir, "shared_cpu_list"), sharedCpuList + "\n");
        if (size is not null)
        {
            File.WriteAllText(Path.Combine(dir, "size"), size + "\n");
        }

        return this;
    }

    /// <summary>The usual x86 layout for processor p: private L1d, L1i and L2, and an L3 shared with <paramref name="l3Shared"/>.</summary>
    public FakeSysfs X86Caches(int p, string l3Shared, string l3Size = "16384K")
    {
        string self = p.ToString(CultureInfo.InvariantCulture);
        return Cache(p, 0, 1, "Data", "48K", self)
            .Cache(p, 1, 1, "Instruction", "32K", self)
            .Cache(p, 2, 2, "Unified", "1024K", self)
            .Cache(p, 3, 3, "Unified", l3Size, l3Shared);
    }

    public FakeSysfs Package(int p, string packageCpusList)
    {
        string dir = Path.Combine(CpuDir(p), "topology");
        Directory.CreateDirectory(dir);
        File.WriteAllText(Path.Combine(dir, "package_cpus_list"), packageCpusList + "\n");
        return this;
    }

    public FakeSysfs Node(int id, string cpuList)
    {
        string dir = Path.Combine(Root, "node", "node" + id.ToString(CultureInfo.InvariantCulture));
        Directory.CreateDirectory(dir);
        File.WriteAllText(Path.Combine(dir, "cpulist"), cpuList + "\n");
        return this;
    }

    public void Dispose()
    {
        try
        {
            Directory.Delete(Root, recursive: true);
        }
        catch (IOException)
        {
            // A temp folder left behind is harmless.
        }
    }

    private string CpuDir(int p) => Path.Combine(Root, "cpu", "cpu" + p.ToString(CultureInfo.InvariantCulture));
}
