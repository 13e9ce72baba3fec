using DivCon.Harness.Cyclic;
using DivCon.Harness.Reporting;

namespace DivCon.Cli.Commands;

/// <summary>
/// Checks the experiment commands share: each collects every problem with the input first, then reports them all,
/// one line each, and exits with <see cref="CliApp.UsageError"/>.
/// </summary>
internal static class CommandInput
{
    /// <summary>
    /// Checks <c>--cores</c> against the processors this process may use. Returns the affinity mask.
    /// </summary>
    public static IReadOnlyList<int> CheckCores(int? cores, List<string> problems)
    {
        IReadOnlyList<int> affinity = MachineInfo.AffinityMask();
        if (cores is { } c && (c <= 0 || c > affinity.Count))
        {
            problems.Add($"--cores must be between 1 and {affinity.Count} (the processors this process may use); got {c}.");
        }

        return affinity;
    }

    /// <summary>
    /// Checks <c>--out</c>. Call it last: the writability check creates the folder, so it runs only when no other
    /// problem was found (a run with other mistakes creates no folder).
    /// </summary>
    public static void CheckOutFolder(string outFolder, List<string> problems)
    {
        if (string.IsNullOrWhiteSpace(outFolder))
        {
            problems.Add("--out needs a folder.");
        }
        else if (problems.Count == 0 && ResultFiles.CheckWritable(outFolder) is { } why)
        {
            problems.Add($"--out: {why}");
        }
    }

    /// <summary>Prints every problem as one line on <paramref name="error"/>; true when there was any.</summary>
    public static async Task<bool> ReportAsync(TextWriter error, string prefix, IReadOnlyList<string> problems)
    {
        foreach (string p in problems)
        {
            await error.WriteLineAsync($"{prefix}: {p}");
        }

        return problems.Count > 0;
    }
}
