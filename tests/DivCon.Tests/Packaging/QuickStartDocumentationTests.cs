namespace DivCon.Tests.Packaging;

/// <summary>
/// The code shown in the documentation is the code the package test compiles and runs: the repository's README and
/// the package README (src/DivCon/README.md) show the QuickStart region of samples/QuickStart/Program.cs verbatim.
/// </summary>
public sealed class QuickStartDocumentationTests
{
    private static string ProgramSource => Normalize(File.ReadAllText(Path.Combine(RepositoryLayout.QuickStartFolder, "Program.cs")));

    [Theory]
    [InlineData("README.md")]
    [InlineData("src/DivCon/README.md")]
    public void Readme_ShowsTheQuickStartRegionVerbatim(string readmePath)
    {
        string source = ProgramSource;
        int start = source.IndexOf("#region QuickStart\n", StringComparison.Ordinal);
        int end = source.IndexOf("#endregion", StringComparison.Ordinal);
        Assert.True(start >= 0 && end > start, "samples/QuickStart/Program.cs should have a '#region QuickStart' … '#endregion'.");
        string region = source[(start + "#region QuickStart\n".Length)..end].TrimEnd();

        string readme = Normalize(File.ReadAllText(Path.Combine(RepositoryLayout.Root, readmePath)));
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
