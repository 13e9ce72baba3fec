using System.Text.RegularExpressions;

namespace DivCon.Tests.Packaging;

/// <summary>
/// Issue 8, must show 3: the core package's build fails on a public member without an XML doc comment. The real
/// src/DivCon project (its own settings and Directory.Build.props) is built with one extra file holding an
/// undocumented public type; the build must fail with CS1591 on that type and on nothing else.
/// </summary>
[Collection(PackagingCollection.Name)]
public sealed class DocumentationBuildTests
{
    private static readonly TimeSpan BuildTimeout = TimeSpan.FromMinutes(10);

    [Fact]
    [Trait("Category", "Packaging")]
    public async Task CoreBuild_FailsOnAPublicMemberWithoutADocComment()
    {
        string temp = RepositoryLayout.NewTempFolder("divcon-docprobe");
        try
        {
            string probe = Path.Combine(temp, "DocumentationProbe.cs");
            File.WriteAllText(probe, """
                namespace DivCon;

                public sealed class DocumentationProbe
                {
                    public int Undocumented { get; init; }
                }
                """);

            // MSBuild imports CustomAfterMicrosoftCommonTargets into every project: it adds the probe to the compile
            // items without touching the project file.
            string targets = Path.Combine(temp, "probe.targets");
            File.WriteAllText(targets, $"""
                <Project>
                  <ItemGroup>
                    <Compile Include="{probe}" />
                  </ItemGroup>
                </Project>
                """);

            DotnetCli.Result build = await DotnetCli.RunAsync(
                RepositoryLayout.Root,
                BuildTimeout,
                "build", RepositoryLayout.CoreProject, "-c", "Debug", "--no-restore", "--disable-build-servers",
                $"-p:CustomAfterMicrosoftCommonTargets={targets}",
                $"-p:OutputPath={Path.Combine(temp, "bin")}/",
                $"-p:IntermediateOutputPath={Path.Combine(temp, "obj")}/");

            string all = build.Output + build.Error;
            Assert.True(build.ExitCode != 0, build.Describe("The build with an undocumented public type should fail"));
            var errors = Regex.Matches(all, @"(?<file>[^\s]+)\(\d+,\d+\): error (?<code>[A-Z]+\d+): (?<message>[^\[\r\n]*)")
                .Select(m => (File: m.Groups["file"].Value, Code: m.Groups["code"].Value, Message: m.Groups["message"].Value.Trim()))
                .Distinct()
                .ToList();
            Assert.True(errors.Count > 0, build.Describe("The build should report compiler errors"));
            Assert.All(errors, e => Assert.Equal(("CS1591", probe), (e.Code, e.File)));
            Assert.Contains(errors, e => e.Message.EndsWith("'DocumentationProbe'", StringComparison.Ordinal));
            Assert.Contains(errors, e => e.Message.EndsWith("'DocumentationProbe.Undocumented'", StringComparison.Ordinal));
        }
        finally
        {
            RepositoryLayout.TryDelete(temp);
        }
    }
}
