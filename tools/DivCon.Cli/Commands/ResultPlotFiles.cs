using DivCon.Harness.Experiments;
using DivCon.Harness.Plots;

namespace DivCon.Cli.Commands;

/// <summary>
/// The figures beside a cyclic / symmetric result: NTT, NP, ANTT, STP (MNTT) drawn from the result file just written
/// (the same code as <c>divcon plot --from</c>), and for each MultiProgramScheduler scheme that left a timeline its
/// Chrome trace (always) and allocation plot (with <c>--plots png</c>). Written all or nothing, after the results.
/// </summary>
internal static class ResultPlotFiles
{
    public static IReadOnlyList<string> Write(string folder, string resultJsonPath, bool png, IReadOnlyList<SchemeTimeline> timelines)
    {
        var files = new List<(string Name, byte[] Content)>();
        if (png)
        {
            files.AddRange(ResultPlots.Render(ResultPlots.FromJson(File.ReadAllText(resultJsonPath))));
        }

        // One set of files per scheme; a scheme run more than once (repetitions) gets -2, -3, ... on the later ones.
        var seen = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);
        foreach (SchemeTimeline t in timelines)
        {
            int n = seen[t.Scheme] = seen.GetValueOrDefault(t.Scheme) + 1;
            SchemeTimeline named = n == 1 ? t : t with { Scheme = $"{t.Scheme}-{n}" };
            files.AddRange(AllocationPlot.Files(named, png));
        }

        return files.Count == 0 ? [] : ExperimentFiles.Write(folder, files);
    }
}
