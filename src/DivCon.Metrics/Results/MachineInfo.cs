using System.Diagnostics;
using System.Runtime.InteropServices;
using DivCon.Scheduling;

namespace DivCon.Metrics.Results;

/// <summary>The machine and build a result was measured on, recorded next to the numbers.</summary>
/// <param name="ProcessorCount"><see cref="Environment.ProcessorCount"/>.</param>
/// <param name="Affinity">The process's affinity mask.</param>
/// <param name="OperatingSystem">The OS description.</param>
/// <param name="Runtime">The .NET runtime.</param>
/// <param name="Architecture">The process architecture.</param>
/// <param name="GitCommit">The commit of the build, when git answered.</param>
/// <param name="GitDirty">Whether tracked files were modified, when git answered.</param>
/// <param name="Budget">
/// The CPU budget the experiment ran under (allowed processors, cgroup quota, <c>DOTNET_PROCESSOR_COUNT</c>, each with
/// its source; docs/cpu-budget.md): the same reading the experiment's schedulers were sized by. Null in files written
/// before it was recorded.
/// </param>
public sealed record MachineInfo(
    int ProcessorCount,
    IReadOnlyList<int> Affinity,
    string OperatingSystem,
    string Runtime,
    string Architecture,
    string? GitCommit,
    bool? GitDirty,
    CpuBudget? Budget = null)
{
    /// <summary>
    /// Reads the machine now, with <paramref name="budget"/> (the one the experiment detected and sized its schedulers
    /// by; detected here when null). The git commit comes from <c>git</c> in the current directory, if it answers within 5 s.
    /// </summary>
    public static MachineInfo Capture(CpuBudget? budget = null) => new(
        Environment.ProcessorCount,
        ThreadAffinity.GetProcessAffinity(),
        RuntimeInformation.OSDescription,
        RuntimeInformation.FrameworkDescription,
        RuntimeInformation.ProcessArchitecture.ToString(),
        Git("rev-parse HEAD")?.Trim(),
        Git("status --porcelain --untracked-files=no") is { } s ? s.Trim().Length > 0 : null,
        budget ?? CpuBudget.Detect());

    // The working directory first (a run from the repository), then the folder of the binary (a run from elsewhere of
    // a build inside the repository).
    private static string? Git(string arguments) =>
        GitIn(Environment.CurrentDirectory, arguments) ?? GitIn(AppContext.BaseDirectory, arguments);

    private static string? GitIn(string directory, string arguments)
    {
        try
        {
            using var git = Process.Start(new ProcessStartInfo("git", $"-C \"{directory}\" {arguments}")
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            });
            if (git is null)
            {
                return null;
            }

            Task<string> output = git.StandardOutput.ReadToEndAsync();
            if (!git.WaitForExit(5000))
            {
                git.Kill();
                return null;
            }

            return git.ExitCode == 0 ? output.GetAwaiter().GetResult() : null;
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            return null;
        }
    }
}
