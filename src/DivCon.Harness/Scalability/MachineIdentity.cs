using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;

namespace DivCon.Harness.Scalability;

/// <summary>
/// What makes a scalability measurement specific to a machine: a cached result is reused only on a machine with the
/// same identity (the thesis treats measuring scalability as a one-off cost per program and machine, §7.4).
/// </summary>
/// <param name="ProcessorCount">Processors the process may use (<see cref="Environment.ProcessorCount"/>).</param>
/// <param name="Affinity">The process's allowed processors, e.g. <c>0-1</c> (Linux <c>Cpus_allowed_list</c>) or a hex mask.</param>
/// <param name="OperatingSystem">The OS description.</param>
/// <param name="Runtime">The .NET runtime description.</param>
public sealed record MachineIdentity(int ProcessorCount, string Affinity, string OperatingSystem, string Runtime)
{
    /// <summary>The machine this process runs on.</summary>
    public static MachineIdentity Current() =>
        new(Environment.ProcessorCount, ReadAffinity(), RuntimeInformation.OSDescription, RuntimeInformation.FrameworkDescription);

    private static string ReadAffinity()
    {
        try
        {
            if (System.OperatingSystem.IsLinux() && File.Exists("/proc/self/status"))
            {
                foreach (string line in File.ReadLines("/proc/self/status"))
                {
                    if (line.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal))
                    {
                        return line["Cpus_allowed_list:".Length..].Trim();
                    }
                }
            }

            if (System.OperatingSystem.IsWindows() || System.OperatingSystem.IsLinux())
            {
                using var process = Process.GetCurrentProcess();
                return "0x" + ((long)process.ProcessorAffinity).ToString("x", CultureInfo.InvariantCulture);
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException or PlatformNotSupportedException)
        {
            // Unknown affinity is still an identity: such results are reused only by processes that cannot read it either.
        }

        return "unknown";
    }
}
