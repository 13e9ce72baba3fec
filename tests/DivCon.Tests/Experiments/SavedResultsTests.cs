using DivCon.Harness.Reporting;
using DivCon.Metrics.Results;
using DivCon.Tests.Packaging;

namespace DivCon.Tests.Experiments;

/// <summary>
/// The results the repository ships (docs/results, which the README cites) are readable by this build: every file of a
/// kind that <c>divcon plot --from</c> reads gives its figures back (models, not PNGs), so a change of schema that leaves
/// a saved result behind fails here, not in a user's hands.
/// </summary>
public sealed class SavedResultsTests
{
    public static TheoryData<string> PlottedFiles()
    {
        var data = new TheoryData<string>();
        string root = Path.Combine(RepositoryLayout.Root, "docs", "results");
        var plotted = ResultKinds.Plotted.ToHashSet();
        foreach (string file in Directory.EnumerateFiles(root, "*.json", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
        {
            if (!file.EndsWith(".plot.json", StringComparison.Ordinal) && !file.EndsWith(".trace.json", StringComparison.Ordinal)
                && ResultJson.Header(File.ReadAllText(file)).Kind is string kind && plotted.Contains(kind))
            {
                data.Add(Path.GetRelativePath(RepositoryLayout.Root, file));
            }
        }

        return data;
    }

    [Fact]
    public void The_repository_ships_saved_results_of_the_plotted_kinds() => Assert.True(PlottedFiles().Count >= 5, $"{PlottedFiles().Count} saved results found");

    [Theory]
    [MemberData(nameof(PlottedFiles))]
    public void Every_saved_result_redraws_with_this_build(string relativePath)
    {
        string json = File.ReadAllText(Path.Combine(RepositoryLayout.Root, relativePath));

        Assert.NotEmpty(ResultKinds.Figures(json));
    }
}
