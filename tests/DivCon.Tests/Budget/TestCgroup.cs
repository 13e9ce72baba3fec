using System.Diagnostics;
using System.Globalization;
using DivCon.Scheduling;

namespace DivCon.Tests.Budget;

/// <summary>
/// A cgroup with a CPU quota, made under this test process's own cpu cgroup for one test and removed on dispose
/// (after its processes have exited, or been killed), and a child process run inside it: the probe
/// (tests/DivCon.CgroupProbe) or the <c>divcon</c> CLI. cgroup v1 (<c>cpu.cfs_quota_us</c>) and v2 (<c>cpu.max</c>)
/// are both handled.
/// </summary>
internal sealed class TestCgroup : IDisposable
{
    private const string Prefix = "divcon-test-";
    private static readonly Lazy<string?> s_unavailable = new(FindUnavailableReason);
    private readonly List<string> _created = []; // outermost first
    private readonly int _version;

    private TestCgroup(int version, string quotaDirectory, string processDirectory)
    {
        _version = version;
        QuotaDirectory = quotaDirectory;
        ProcessDirectory = processDirectory;
    }

    /// <summary>Why no test cgroup can be made here; null when one can.</summary>
    public static string? UnavailableReason => s_unavailable.Value;

    /// <summary>The group holding the quota.</summary>
    public string QuotaDirectory { get; }

    /// <summary>The group the child process runs in: <see cref="QuotaDirectory"/>, or a group nested in it.</summary>
    public string ProcessDirectory { get; }

    /// <summary>
    /// Creates a group with <paramref name="quotaMicroseconds"/> per <paramref name="periodMicroseconds"/> (100 ms, the
    /// kernel's default, unless given); the child runs in it, or in a sub-group without a quota of its own.
    /// </summary>
    public static TestCgroup Create(long quotaMicroseconds, bool nested = false, long periodMicroseconds = 100_000)
    {
        CpuBudget own = CpuBudget.Detect();
        string parent = own.CgroupDirectory ?? throw new InvalidOperationException("No cgroup cpu controller: " + string.Join(" ", own.Notes));
        RemoveStaleGroups(parent);
        string quotaDirectory = Path.Join(parent, Prefix + Environment.ProcessId.ToString(CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N")[..8]);
        var group = new TestCgroup(own.CgroupVersion ?? 1, quotaDirectory, nested ? Path.Join(quotaDirectory, "inner") : quotaDirectory);
        try
        {
            group.MakeDirectory(quotaDirectory);
            group.SetQuota(quotaMicroseconds, periodMicroseconds);
            if (nested)
            {
                group.MakeDirectory(group.ProcessDirectory);
            }

            return group;
        }
        catch
        {
            group.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Runs the probe in <see cref="ProcessDirectory"/> (<see cref="Run"/>). Returns its standard output; a non-zero
    /// exit or a run longer than <paramref name="timeout"/> fails the test.
    /// </summary>
    public string RunProbe(TimeSpan timeout, params string[] arguments)
    {
        ChildResult result = Run("DivCon.CgroupProbe.dll", timeout, arguments);
        if (result.ExitCode != 0)
        {
            throw new InvalidOperationException($"The probe ({string.Join(' ', arguments)}) exited with {result.ExitCode}: {result.Error}{result.Output}");
        }

        return result.Output;
    }

    /// <summary>Runs the <c>divcon</c> CLI in <see cref="ProcessDirectory"/> (<see cref="Run"/>); its exit code and both outputs.</summary>
    public ChildResult RunCli(TimeSpan timeout, params string[] arguments) => Run("DivCon.Cli.dll", timeout, arguments);

    /// <summary>
    /// Runs <c>dotnet exec <paramref name="dll"/></c> (a dll beside the tests) in <see cref="ProcessDirectory"/>: a
    /// shell moves itself into the group, then execs the runtime, so the runtime starts inside the group (as in a
    /// container). A run longer than <paramref name="timeout"/> is killed and fails the test.
    /// </summary>
    public ChildResult Run(string dll, TimeSpan timeout, params string[] arguments)
    {
        string path = Path.Combine(AppContext.BaseDirectory, dll);
        var start = new ProcessStartInfo("/bin/sh")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add("-c");
        start.ArgumentList.Add("echo $$ > \"$0\" && exec \"$@\""); // $0: the group's cgroup.procs; "$@": the command
        start.ArgumentList.Add(Path.Join(ProcessDirectory, "cgroup.procs"));
        start.ArgumentList.Add(DotnetHost);
        start.ArgumentList.Add("exec");
        start.ArgumentList.Add(path);
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        // The child must see the quota, not a processor count forced on the test run; CI=true keeps the CLI's
        // progress to plain lines.
        start.Environment.Remove("DOTNET_PROCESSOR_COUNT");
        start.Environment.Remove("COMPlus_PROCESSOR_COUNT");
        start.Environment["CI"] = "true";

        using Process process = Process.Start(start) ?? throw new InvalidOperationException("Could not start /bin/sh.");
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> error = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(timeout))
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit(TimeSpan.FromSeconds(10));
            throw new TimeoutException($"{dll} ({string.Join(' ', arguments)}) did not finish within {timeout.TotalSeconds:0} s.");
        }

        process.WaitForExit(); // drains the redirected streams
        return new ChildResult(process.ExitCode, output.Result, error.Result);
    }

    /// <summary>Removes the groups, innermost first, killing any process still in them (bounded retries).</summary>
    public void Dispose()
    {
        for (int i = _created.Count - 1; i >= 0; i--)
        {
            string directory = _created[i];
            for (int attempt = 0; attempt < 50 && Directory.Exists(directory); attempt++)
            {
                KillMembers(directory);
                try
                {
                    Directory.Delete(directory); // rmdir: a cgroup's control files vanish with it
                }
                catch (IOException)
                {
                    Thread.Sleep(100); // a killed process leaves the group a moment after it exits
                }
            }
        }
    }

    private static string DotnetHost
    {
        get
        {
            string? host = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH");
            if (host is not null && File.Exists(host))
            {
                return host;
            }

            string? self = Environment.ProcessPath;
            return self is not null && Path.GetFileNameWithoutExtension(self) == "dotnet" ? self : "dotnet";
        }
    }

    private void MakeDirectory(string directory)
    {
        Directory.CreateDirectory(directory);
        _created.Add(directory);
    }

    private void SetQuota(long quota, long period)
    {
        if (_version == 1)
        {
            File.WriteAllText(Path.Join(QuotaDirectory, "cpu.cfs_period_us"), period.ToString(CultureInfo.InvariantCulture));
            File.WriteAllText(Path.Join(QuotaDirectory, "cpu.cfs_quota_us"), quota.ToString(CultureInfo.InvariantCulture));
        }
        else
        {
            string max = Path.Join(QuotaDirectory, "cpu.max");
            if (!File.Exists(max))
            {
                throw new InvalidOperationException($"{max} does not exist: the cpu controller is not enabled in {Path.GetDirectoryName(QuotaDirectory)}/cgroup.subtree_control.");
            }

            File.WriteAllText(max, FormattableString.Invariant($"{quota} {period}"));
        }
    }

    private static void KillMembers(string directory)
    {
        string procs = Path.Join(directory, "cgroup.procs");
        if (!File.Exists(procs))
        {
            return;
        }

        foreach (string line in File.ReadAllLines(procs))
        {
            // Only our own probes run in a test group; a probe left behind by a failed or timed-out test is killed here.
            if (int.TryParse(line, NumberStyles.None, CultureInfo.InvariantCulture, out int pid))
            {
                try
                {
                    using Process p = Process.GetProcessById(pid);
                    p.Kill(entireProcessTree: true);
                    p.WaitForExit(TimeSpan.FromSeconds(5));
                }
                catch (Exception e) when (e is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
                {
                    // Already gone.
                }
            }
        }
    }

    /// <summary>Removes empty groups left by test runs whose process no longer exists (a run killed before its cleanup).</summary>
    private static void RemoveStaleGroups(string parent)
    {
        foreach (string directory in Directory.EnumerateDirectories(parent, Prefix + "*"))
        {
            string[] parts = Path.GetFileName(directory)[Prefix.Length..].Split('-');
            if (parts.Length == 2 && int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out int pid) && !ProcessExists(pid))
            {
                foreach (string inner in Directory.EnumerateDirectories(directory).Append(directory))
                {
                    try
                    {
                        Directory.Delete(inner);
                    }
                    catch (IOException)
                    {
                        // Not empty: some process is still in it; leave it.
                    }
                }
            }
        }
    }

    private static bool ProcessExists(int pid) => Directory.Exists("/proc/" + pid.ToString(CultureInfo.InvariantCulture));

    private static string? FindUnavailableReason()
    {
        if (!OperatingSystem.IsLinux())
        {
            return $"cgroups exist on Linux only, not on {System.Runtime.InteropServices.RuntimeInformation.OSDescription}.";
        }

        CpuBudget own = CpuBudget.Detect();
        if (own.CgroupDirectory is null)
        {
            return "this process has no cgroup cpu controller (" + string.Join(" ", own.Notes) + ")";
        }

        try
        {
            using TestCgroup probe = Create(100_000);
            return null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException)
        {
            return $"creating a group with a quota under {own.CgroupDirectory} (cgroup v{own.CgroupVersion}) failed: {e.Message}";
        }
    }
}
