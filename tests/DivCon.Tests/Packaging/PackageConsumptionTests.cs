using System.IO.Compression;
using System.Reflection.Metadata;
using System.Text.RegularExpressions;
using System.Xml.Linq;

namespace DivCon.Tests.Packaging;

/// <summary>
/// Issue 8, must show 2: `dotnet pack` of src/DivCon gives a package with its README, XML docs, license, repository
/// metadata and symbols, and samples/QuickStart, built against that *package* (not a project reference) from a
/// clean folder, runs two programs side by side and prints their allocations and correct results.
/// </summary>
/// <remarks>
/// One pack, one build, one run. Isolation from NuGet's caches: a version no one has packed before
/// (0.1.0-test.g&lt;guid&gt;), a NuGet.config that clears every inherited source and maps DivCon to the temp feed
/// only, and a globalPackagesFolder of its own, so neither ~/.nuget/packages nor a feed can supply a stale DivCon.
/// The pack writes its outputs to the temp folder (not src/DivCon/bin|obj) and does not restore (the test project's
/// build restored DivCon already), so it cannot disturb the build these tests run from.
/// </remarks>
[Collection(PackagingCollection.Name)]
public sealed class PackageConsumptionTests
{
    private static readonly TimeSpan PackTimeout = TimeSpan.FromMinutes(10);
    private static readonly TimeSpan BuildTimeout = TimeSpan.FromMinutes(10);
    private static readonly TimeSpan RunTimeout = TimeSpan.FromMinutes(5);

    [Fact]
    [Trait("Category", "Packaging")]
    public async Task Pack_ThenQuickStartBuiltAgainstThePackage_RunsTwoProgramsSideBySide()
    {
        string temp = RepositoryLayout.NewTempFolder("divcon-pack");
        try
        {
            string version = $"0.1.0-test.g{Guid.NewGuid():N}";
            string feed = Path.Combine(temp, "feed");

            // 1. Pack, as a release would (CI paths), into the temp feed.
            DotnetCli.Result pack = await DotnetCli.RunAsync(
                RepositoryLayout.Root,
                PackTimeout,
                "pack", RepositoryLayout.CoreProject, "-c", "Release", "-o", feed, "--no-restore", "--disable-build-servers",
                $"-p:Version={version}", "-p:ContinuousIntegrationBuild=true",
                $"-p:OutputPath={Path.Combine(temp, "pack", "bin")}/",
                $"-p:IntermediateOutputPath={Path.Combine(temp, "pack", "obj")}/",
                $"-p:NuspecOutputPath={Path.Combine(temp, "pack", "nuspec")}/");
            Assert.True(pack.ExitCode == 0, pack.Describe("dotnet pack"));
            CheckPackage(Path.Combine(feed, $"DivCon.{version}.nupkg"), version);
            CheckSymbols(Path.Combine(feed, $"DivCon.{version}.snupkg"));

            // 2. A copy of samples/QuickStart (its own Directory.Build.props and Directory.Packages.props stop the
            //    repository's from applying), restored from the temp feed only.
            string app = Path.Combine(temp, "app");
            Directory.CreateDirectory(app);
            foreach (string name in new[] { "QuickStart.csproj", "Program.cs", "Directory.Build.props", "Directory.Packages.props" })
            {
                File.Copy(Path.Combine(RepositoryLayout.QuickStartFolder, name), Path.Combine(app, name));
            }

            string packages = Path.Combine(temp, "packages");
            File.WriteAllText(Path.Combine(app, "nuget.config"), NuGetConfig(feed, packages));
            DotnetCli.Result build = await DotnetCli.RunAsync(
                app, BuildTimeout, "build", "QuickStart.csproj", "-c", "Release", "--disable-build-servers", $"-p:DivConVersion={version}");
            Assert.True(build.ExitCode == 0, build.Describe("dotnet build of the QuickStart against the package"));
            Assert.True(
                File.Exists(Path.Combine(packages, "divcon", version, $"divcon.{version}.nupkg")),
                $"DivCon {version} should have been restored from the temp feed into {packages}.");
            // What NuGet resolved: DivCon as a package of exactly this version, and nothing else.
            using (var assets = System.Text.Json.JsonDocument.Parse(File.ReadAllText(Path.Combine(app, "obj", "project.assets.json"))))
            {
                var libraries = assets.RootElement.GetProperty("libraries").EnumerateObject()
                    .Select(l => (l.Name, Type: l.Value.GetProperty("type").GetString())).ToList();
                Assert.Equal([($"DivCon/{version}", "package")], libraries);
            }

            // 3. Run it.
            DotnetCli.Result run = await DotnetCli.RunAsync(
                app, RunTimeout, Path.Combine(app, "bin", "Release", "net10.0", "QuickStart.dll"));
            Assert.True(run.ExitCode == 0, run.Describe("QuickStart"));
            CheckQuickStartOutput(run.Output);
        }
        finally
        {
            RepositoryLayout.TryDelete(temp);
        }
    }

    private static void CheckPackage(string nupkg, string version)
    {
        Assert.True(File.Exists(nupkg), $"{nupkg} should exist.");
        using ZipArchive zip = ZipFile.OpenRead(nupkg);
        var entries = zip.Entries.Select(e => e.FullName).ToHashSet(StringComparer.Ordinal);
        Assert.Contains("lib/net10.0/DivCon.dll", entries);
        Assert.Contains("lib/net10.0/DivCon.xml", entries);
        Assert.Contains("README.md", entries);

        XDocument nuspec = XDocument.Load(zip.GetEntry("DivCon.nuspec")!.Open());
        XNamespace ns = nuspec.Root!.Name.Namespace;
        XElement metadata = nuspec.Root.Element(ns + "metadata")!;
        Assert.Equal("DivCon", metadata.Element(ns + "id")?.Value);
        Assert.Equal(version, metadata.Element(ns + "version")?.Value);
        XElement license = metadata.Element(ns + "license")!;
        Assert.Equal("expression", license.Attribute("type")?.Value);
        Assert.Equal("MIT", license.Value);
        Assert.Equal("README.md", metadata.Element(ns + "readme")?.Value);
        Assert.False(string.IsNullOrWhiteSpace(metadata.Element(ns + "description")?.Value));
        XElement repository = metadata.Element(ns + "repository")!;
        Assert.Equal("git", repository.Attribute("type")?.Value);
        Assert.StartsWith("https://", repository.Attribute("url")?.Value, StringComparison.Ordinal);
        // The commit comes from the SDK's source control information (SourceLink), not from any property we set; a
        // tree exported without .git (no clone) has none to give.
        if (RepositoryLayout.IsGitCheckout)
        {
            Assert.Matches("^[0-9a-f]{40}$", repository.Attribute("commit")?.Value ?? "");
        }

        // The core package takes no dependencies.
        Assert.Empty(metadata.Element(ns + "dependencies")?.Descendants(ns + "dependency") ?? []);

        // The XML documentation ships, with the members of the main types in it.
        XDocument docs = XDocument.Load(zip.GetEntry("lib/net10.0/DivCon.xml")!.Open());
        var members = docs.Descendants("member").Select(m => m.Attribute("name")!.Value).ToHashSet(StringComparer.Ordinal);
        Assert.Contains("T:DivCon.Multiprogramming.MultiProgramScheduler", members);
        Assert.Contains("T:DivCon.Skeletons.DivConFactory", members);
        Assert.Contains("T:DivCon.Partitioning.TaskAvailabilityPolicy", members);

        using var readme = new StreamReader(zip.GetEntry("README.md")!.Open());
        Assert.Contains("MultiProgramScheduler", readme.ReadToEnd(), StringComparison.Ordinal);
    }

    private static void CheckSymbols(string snupkg)
    {
        Assert.True(File.Exists(snupkg), $"{snupkg} should exist.");
        using ZipArchive zip = ZipFile.OpenRead(snupkg);
        ZipArchiveEntry pdb = zip.GetEntry("lib/net10.0/DivCon.pdb") ?? throw new Xunit.Sdk.XunitException("The symbol package has no DivCon.pdb.");

        using var stream = new MemoryStream();
        using (Stream s = pdb.Open())
        {
            s.CopyTo(stream);
        }

        stream.Position = 0;
        using MetadataReaderProvider provider = MetadataReaderProvider.FromPortablePdbStream(stream);
        MetadataReader reader = provider.GetMetadataReader();
        var documents = reader.Documents.Select(h => reader.GetString(reader.GetDocument(h).Name)).ToList();
        Assert.Contains(documents, d => d.EndsWith("MultiProgramScheduler.cs", StringComparison.Ordinal));
        // A portable PDB from a deterministic CI build of a git checkout: source paths are mapped to /_/ (the root
        // SourceLink maps to the repository), not to this machine's folders. A tree without .git has no source root.
        if (RepositoryLayout.IsGitCheckout)
        {
            string repositoryDocument = documents.First(d => d.EndsWith("MultiProgramScheduler.cs", StringComparison.Ordinal));
            Assert.StartsWith("/_/", repositoryDocument, StringComparison.Ordinal);
        }
    }

    private static void CheckQuickStartOutput(string output)
    {
        string[] lines = output.Split('\n', StringSplitOptions.TrimEntries);
        Match header = Regex.Match(lines[0], @"^(\d+) workers, (pinned|unpinned)");
        Assert.True(header.Success, $"First line should give the worker count:\n{output}");
        int workers = int.Parse(header.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);

        // Allocation rows: while both programs run their cores add up to the pool; once one is removed the other
        // holds every worker.
        var rows = lines.Select(l => Regex.Match(l, @"^\d+ ms\s+(\d+|-)\s+(\d+|-)$")).Where(m => m.Success)
            .Select(m => (Sort: m.Groups[1].Value, Sum: m.Groups[2].Value)).ToList();
        Assert.True(rows.Count >= 2, $"Expected allocation rows:\n{output}");
        foreach (var (sort, sum) in rows)
        {
            if (sort != "-" && sum != "-")
            {
                Assert.Equal(workers, int.Parse(sort, System.Globalization.CultureInfo.InvariantCulture) + int.Parse(sum, System.Globalization.CultureInfo.InvariantCulture));
            }
        }

        Assert.Contains(rows, r => (r.Sort == "-") != (r.Sum == "-") && (r.Sort == "-" ? r.Sum : r.Sort) == workers.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal(("-", "-"), rows[^1]);

        // The scheduler's timeline: each program was given a worker.
        Assert.Contains(lines, l => l.Contains("-> quicksort", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("-> sum of squares", StringComparison.Ordinal));

        // Results.
        Assert.Contains("quicksort: 2097152 items sorted, in order: True", lines);
        Match sumLine = lines.Select(l => Regex.Match(l, @"^sum of squares 1\.\.(\d+): (\d+), expected (\d+): (True|False)$")).Single(m => m.Success);
        Assert.Equal(sumLine.Groups[3].Value, sumLine.Groups[2].Value);
        UInt128 n = UInt128.Parse(sumLine.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
        Assert.Equal((n * (n + 1) * ((2 * n) + 1) / 6).ToString(System.Globalization.CultureInfo.InvariantCulture), sumLine.Groups[2].Value);
    }

    private static string NuGetConfig(string feed, string packages) => $"""
        <?xml version="1.0" encoding="utf-8"?>
        <configuration>
          <config>
            <add key="globalPackagesFolder" value="{packages}" />
          </config>
          <packageSources>
            <clear />
            <add key="divcon-test-feed" value="{feed}" />
            <add key="nuget.org" value="https://api.nuget.org/v3/index.json" protocolVersion="3" />
          </packageSources>
          <fallbackPackageFolders>
            <clear />
          </fallbackPackageFolders>
          <packageSourceMapping>
            <packageSource key="divcon-test-feed">
              <package pattern="DivCon" />
            </packageSource>
            <packageSource key="nuget.org">
              <package pattern="*" />
            </packageSource>
          </packageSourceMapping>
        </configuration>
        """;
}
