namespace DivCon.Tests.Packaging;

/// <summary>
/// The code shown in the documentation is the code the package test compiles and runs: docs/README-draft.md shows
/// samples/QuickStart/Program.cs whole, and the package README (src/DivCon/README.md) its QuickStart region.
/// </summary>
public sealed class QuickStartDocumentationTests
{
    private static string ProgramSource => Normalize(File.ReadAllText(Path.Combine(RepositoryLayout.QuickStartFolder, "Program.cs")));

    [Fact]
    public void ReadmeDraft_ShowsTheQuickStartProgramVerbatim()
    {
        string readme = Normalize(File.ReadAllText(Path.Combine(RepositoryLayout.Root, "docs", "README-draft.md")));
        Assert.Contains(CodeBlocks(readme), block => block == ProgramSource);
    }

    [Fact]
    public void PackageReadme_ShowsTheQuickStartRegionVerbatim()
    {
        string source = ProgramSource;
        int start = source.IndexOf("#region QuickStart\n", StringComparison.Ordinal);
        int end = source.IndexOf("#endregion", StringComparison.Ordinal);
        Assert.True(start >= 0 && end > start, "samples/QuickStart/Program.cs should have a '#region QuickStart' … '#endregion'.");
        string region = source[(start + "#region QuickStart\n".Length)..end].TrimEnd();

        string readme = Normalize(File.ReadAllText(Path.Combine(RepositoryLayout.Root, "src", "DivCon", "README.md")));
        Assert.Contains(CodeBlocks(readme), block => block.Contains(region, StringComparison.Ordinal));
    }

    private static string Normalize(string text) => text.Replace("\r\n", "\n", StringComparison.Ordinal);

    /// <summary>The contents of every ```csharp fenced block, each ending with one newline.</summary>
    private static List<string> CodeBlocks(string markdown)
    {
        var blocks = new List<string>();
        string[] lines = markdown.Split('\n');
        for (int i = 0; i < lines.Length; i++)
        {
            if (lines[i].TrimEnd() != "```csharp")
            {
                continue;
            }

            int j = i + 1;
            while (j < lines.Length && lines[j].TrimEnd() != "```")
            {
                j++;
            }

            blocks.Add(string.Join('\n', lines[(i + 1)..j]) + "\n");
            i = j;
        }

        return blocks;
    }
}
