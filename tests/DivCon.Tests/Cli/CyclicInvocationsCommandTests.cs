using System.Text.Json;
using DivCon.Cli;
using DivCon.Cli.Commands;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Reporting;
using DivCon.Tests.Harness;
using DivCon.Tests.Packaging;

namespace DivCon.Tests.Cli;

/// <summary>
/// <c>divcon cyclic --repeat N</c> runs N child processes of the real <c>divcon</c> (the DivCon.Cli.dll built beside
/// these tests, on this dotnet host), and <c>divcon analyze</c> recomputes a saved result from its raw times.
/// </summary>
public sealed class CyclicInvocationsCommandTests : ExperimentCliHarness
{
    private static readonly CliSelf s_self = new(DotnetCli.Host, [Path.Combine(AppContext.BaseDirectory, "DivCon.Cli.dll")]);

    private static async Task<(int Code, string Out, string Err)> RunWithChildren(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        // Two child processes, each starting a runtime and measuring C^SP before its phases: minutes on a loaded 2-core machine.
        int code = await CliApp.RunAsync(args, output, error, s_self).WaitAsync(TimeSpan.FromMinutes(10));
        return (code, output.ToString(), error.ToString());
    }

    [Fact]
    public async Task Repeat2_RunsTwoChildProcesses_AndAnalyzesTheirRawTimesTogether()
    {
        string outDir = Path.Combine(Root, "two");

        // 3 s phases: a spin run takes about 0.07 s alone, so even a run slowed 20-fold by a loaded machine ends inside the
        // phase and every scheme has recorded runs (NTT, ANTT) in both invocations; a stalled machine may still leave
        // none, and then the whole run is made again, at most 3 times (StalledPhaseRetry).
        var (code, stdout, stderr) = await StalledPhaseRetry.RunAsync(outDir, () => RunWithChildren("cyclic", "--programs", "spin", "--schemes", "shared,tpl-default", "--duration", "3s",
            "--sp-runs", "2", "--warmup", "0", "--max-warmup", "2", "--seq-runs", "1", "--size", "small", "--repeat", "2", "--plots", "none", "--out", outDir));

        Assert.True(code == 0, stderr);
        CyclicResult result = ResultKinds.Cyclic.Read(await File.ReadAllTextAsync(Path.Combine(outDir, "cyclic.json")));
        Assert.Equal(2, result.Configuration.Repeat);
        Assert.Equal([1, 2], result.Invocations.Select(i => i.Invocation));
        // Two other processes, one after the other: not this test's process, not each other.
        Assert.DoesNotContain(Environment.ProcessId, result.Invocations.Select(i => i.ProcessId));
        Assert.NotEqual(result.Invocations[0].ProcessId, result.Invocations[1].ProcessId);
        Assert.True(result.Invocations[1].StartedUtc >= result.Invocations[0].StartedUtc.AddSeconds(result.Invocations[0].ElapsedSeconds * 0.99));
        Assert.All(result.Invocations, i => Assert.Equal(["shared", "tpl-default"], i.SchemeOrder.Order()));
        Assert.All(result.Invocations, i => Assert.Equal(2, i.Programs[0].SpSeconds.Count));
        // The analysis is over both: n = 2 invocations, the comparisons paired and Holm-corrected over ANTT and STP.
        Assert.All(result.Schemes, s => Assert.Equal(2, s.Antt!.Count));
        Assert.Equal(2, result.Comparisons.Count);
        Assert.All(result.Comparisons, c => Assert.Equal(2, c.Test.Pairs));
        Assert.All(result.Comparisons, c => Assert.NotNull(c.HolmP));
        Assert.Contains("2 invocations (independent processes)", stdout, StringComparison.Ordinal);
        Assert.Contains("invocation 2/2: done", stderr, StringComparison.Ordinal);
        Assert.Empty(Directory.GetDirectories(outDir));
    }

    [Fact]
    public async Task Analyze_RecomputesTheSavedFileExactly_PoolsFiles_AndChangesTheFamilyWithABaseline()
    {
        var random = new Random(11);
        CyclicInvocation Inv(int k) => CyclicFixtures.Invocation(k, ["a", "b"], [[1.0 + (0.1 * random.NextDouble()), 1.05], [2.0, 2.1 + (0.1 * random.NextDouble())]],
            [("x", [new ProgramRuns([2 + random.NextDouble()], 0), new ProgramRuns([4 + random.NextDouble()], 0)]),
             ("y", [new ProgramRuns([3 + random.NextDouble()], 0), new ProgramRuns([5 + random.NextDouble()], 0)]),
             ("z", [new ProgramRuns([2.5 + random.NextDouble()], 0), new ProgramRuns([4.5 + random.NextDouble()], 0)])]);
        string first = Path.Combine(Root, "first"), second = Path.Combine(Root, "second");
        ResultFolder.Write(first, ResultKinds.Cyclic.Files(CyclicFixtures.Result(["a", "b"], ["x", "y", "z"], [Inv(1), Inv(2), Inv(3)]), png: false));
        ResultFolder.Write(second, ResultKinds.Cyclic.Files(CyclicFixtures.Result(["a", "b"], ["x", "y", "z"], [Inv(1), Inv(2)]), png: false));
        string saved = await File.ReadAllTextAsync(Path.Combine(first, "cyclic.json"));

        var (code, stdout, stderr) = await Run("analyze", "--from", first, "--plots", "none");
        Assert.True(code == 0, stderr);
        Assert.Equal(saved, await File.ReadAllTextAsync(Path.Combine(first, "cyclic.json")));
        Assert.Contains("3 invocations (independent processes)", stdout, StringComparison.Ordinal);

        string pooled = Path.Combine(Root, "pooled");
        (code, stdout, stderr) = await Run("analyze", "--from", first, second, "--baseline", "y", "--detect", "10%", "--out", pooled, "--plots", "none");
        Assert.True(code == 0, stderr);
        CyclicResult result = ResultKinds.Cyclic.Read(await File.ReadAllTextAsync(Path.Combine(pooled, "cyclic.json")));
        Assert.Equal([1, 2, 3, 4, 5], result.Invocations.Select(i => i.Invocation));
        Assert.Equal(5, result.Configuration.Repeat);
        Assert.Equal(4, result.Comparisons.Count); // x / y and z / y, ANTT and STP
        Assert.All(result.Comparisons, c => Assert.Equal("y", c.SchemeB));
        Assert.Equal(0.1, result.Analysis.Detect);
        Assert.Contains("each scheme against y", stdout, StringComparison.Ordinal);
        Assert.Contains("5 invocations from 2 files", stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Analyze_BadInput_OneLineEach_ExitCode2()
    {
        string old = Path.Combine(Root, "old");
        Directory.CreateDirectory(old);
        await File.WriteAllTextAsync(Path.Combine(old, "cyclic.json"), """{ "kind": "cyclic", "schemaVersion": 2, "schemes": [] }""");
        string other = Path.Combine(Root, "other");
        ResultFolder.Write(other, ResultKinds.Cyclic.Files(CyclicFixtures.OneInvocation(withRuns: true), png: false));
        string different = Path.Combine(Root, "different");
        ResultFolder.Write(different, ResultKinds.Cyclic.Files(CyclicFixtures.Result(["a"], ["x"],
            [CyclicFixtures.Invocation(1, ["a"], [[1.0]], [("x", [new ProgramRuns([2.0], 0)])])]), png: false));

        var (code, _, err) = await Run("analyze", "--from", old);
        Assert.Equal(CliApp.UsageError, code);
        Assert.Contains("schema version 2", Assert.Single(err.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
        Assert.Contains("keep no raw multiprogram run times", err, StringComparison.Ordinal);

        (code, _, err) = await Run("analyze", "--from", Path.Combine(Root, "nowhere"));
        Assert.Equal(CliApp.UsageError, code);
        Assert.Contains("holds no cyclic.json", err, StringComparison.Ordinal);

        (code, _, err) = await Run("analyze", "--from", other, different);
        Assert.Equal(CliApp.UsageError, code);
        Assert.Contains("another configuration", Assert.Single(err.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);

        (code, _, err) = await Run("analyze", "--from", other, "--baseline", "nosuch", "--detect", "lots");
        Assert.Equal(CliApp.UsageError, code);
        Assert.Equal(2, err.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
        Assert.DoesNotContain("   at ", err, StringComparison.Ordinal);
    }

    [Fact]
    public void SameConfiguration_IgnoresOnlyTheInvocationCount()
    {
        CyclicPlanRecord a = CyclicFixtures.Config(["a"], ["x"], repeat: 3);

        Assert.True(ProcessInvocationLauncher.SameConfiguration(a, a with { Repeat = 7, Detect = 0.05 }));
        Assert.False(ProcessInvocationLauncher.SameConfiguration(a, a with { DurationSeconds = 11 }));
        Assert.False(ProcessInvocationLauncher.SameConfiguration(a, a with { SteadyCv = 0.05 }));
        Assert.False(ProcessInvocationLauncher.SameConfiguration(a, a with { Schemes = ["y"] }));
    }
}
