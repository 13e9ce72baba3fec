namespace DivCon.Tests.Packaging;

/// <summary>Paths in the repository the tests run from (found by walking up to DivCon.sln).</summary>
internal static class RepositoryLayout
{
    public static string Root { get; } = FindRoot();

    /// <summary>True in a git clone or worktree (.git is a folder or, in a worktree, a file).</summary>
    public static bool IsGitCheckout => Directory.Exists(Path.Combine(Root, ".git")) || File.Exists(Path.Combine(Root, ".git"));

    public static string CoreProject => Path.Combine(Root, "src", "DivCon", "DivCon.csproj");

    public static string QuickStartFolder => Path.Combine(Root, "samples", "QuickStart");

    /// <summary>A new empty folder under the system temp folder; the caller deletes it.</summary>
    public static string NewTempFolder(string prefix)
    {
        string path = Path.Combine(Path.GetTempPath(), $"{prefix}-{Guid.NewGuid():N}");
        Directory.CreateDirectory(path);
        return path;
    }

    public static void TryDelete(string folder)
    {
        try
        {
            Directory.Delete(folder, recursive: true);
        }
        catch (IOException)
        {
            // A leftover temp folder is harmless; the test's verdict does not depend on its removal.
        }
        catch (UnauthorizedAccessException)
        {
        }
    }

    private static string FindRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "DivCon.sln")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException($"DivCon.sln not found above {AppContext.BaseDirectory}.");
    }
}
