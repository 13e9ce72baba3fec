using System.Globalization;
using System.Text.Json;
using DivCon.Cli;
using DivCon.Harness.Cyclic;

namespace DivCon.Tests.Cli;

// Issue 10 on `divcon factored`: --stealing / --stealing-groups reach the schedulers and are recorded; the
// transform-* programs with --grain / --window-size.
public sealed class FactoredLocalityCommandTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "divcon-cli-tests", Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_root))
        {
            Directory.Delete(_root, recursive: true);
        }
    }

    private static async Task<(int Code, string Out, string Err)> Run(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        int code = await CliApp.RunAsync(args, output, error).WaitAsync(TimeSpan.FromMinutes(3));
        return (code, output.ToString(), error.ToString());
    }

    private static int TwoOrFewer => Math.Min(2, MachineInfo.AffinityMask().Count);

    [Fact]
    public async Task Transforms_WithPerWorkerGroups_RecordTheStealing_CountEveryStealAsRemote_AndSplitIdle()
    {
        string outDir = Path.Combine(_root, "ok");
        int n = TwoOrFewer;

        var (code, stdout, stderr) = await Run("factored", "--programs", "transform-none,transform-sliding", "--size", "small",
            "--runs", "2", "--warmup", "0", "--max-workers", n.ToString(CultureInfo.InvariantCulture), "--plots", "none",
            "--stealing", "cache-group-first", "--stealing-groups", "per-worker", "--grain", "64", "--window-size", "512", "--out", outDir);

        Assert.True(code == 0, stderr);
        Assert.Contains("Stealing: cache-group-first, groups per-worker", stdout, StringComparison.Ordinal);
        Assert.Contains("(window sliding m = 512 blocks, grain 64 blocks, B = 64,", stdout, StringComparison.Ordinal);
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "factored.json")));
        JsonElement stealing = doc.RootElement.GetProperty("configuration").GetProperty("stealing");
        Assert.Equal("cache-group-first", stealing.GetProperty("scope").GetString());
        Assert.Equal("per-worker", stealing.GetProperty("groups").GetString());
        Assert.Equal(n, stealing.GetProperty("workerGroups")[n - 1].GetProperty("groups").GetArrayLength());
        var programs = doc.RootElement.GetProperty("programs").EnumerateArray().ToArray();
        Assert.Equal(["transform-none", "transform-sliding"], programs.Select(p => p.GetProperty("program").GetString()));
        Assert.Equal(JsonValueKind.Null, programs[0].GetProperty("telision").ValueKind);
        Assert.StartsWith("window none, grain 64 blocks", programs[0].GetProperty("settings").GetString(), StringComparison.Ordinal);
        foreach (JsonElement point in programs.SelectMany(p => p.GetProperty("points").EnumerateArray()))
        {
            JsonElement steals = point.GetProperty("steals");
            // One worker per group: no steal can be local.
            Assert.Equal(0, steals.GetProperty("localSteals").GetDouble());
            Assert.Equal(steals.GetProperty("steals").GetDouble(), steals.GetProperty("remoteSteals").GetDouble());
            Assert.Equal(point.GetProperty("ip").GetDouble(),
                steals.GetProperty("schedulingOverhead").GetDouble() + steals.GetProperty("waiting").GetDouble(), 1e-9);
            if (point.GetProperty("p").GetDouble() == 1)
            {
                Assert.Equal(0, steals.GetProperty("steals").GetDouble());
            }
        }
    }

    [Fact]
    public async Task ExplicitGroups_HoldingBothWorkers_CountEveryStealAsLocal()
    {
        if (TwoOrFewer < 2)
        {
            return; // one processor: no second worker to steal (the scheduler-level test covers the mechanism).
        }

        string outDir = Path.Combine(_root, "local");

        var (code, _, stderr) = await Run("factored", "--programs", "transform-none", "--size", "small", "--runs", "1", "--warmup", "0",
            "--max-workers", "2", "--plots", "none", "--stealing", "all", "--stealing-groups", "0,1", "--out", outDir);

        Assert.True(code == 0, stderr);
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "factored.json")));
        Assert.Equal("0,1", doc.RootElement.GetProperty("configuration").GetProperty("stealing").GetProperty("groups").GetString());
        JsonElement steals = doc.RootElement.GetProperty("programs")[0].GetProperty("points")[1].GetProperty("steals");
        Assert.Equal(0, steals.GetProperty("remoteSteals").GetDouble());
        Assert.Equal(steals.GetProperty("steals").GetDouble(), steals.GetProperty("localSteals").GetDouble());
    }

    [Fact]
    public async Task BadStealingAndTransformOptions_EveryProblemOnItsOwnLine_Exit2_NothingWritten()
    {
        string outDir = Path.Combine(_root, "bad");

        var (code, stdout, stderr) = await Run("factored", "--programs", "transform-none", "--max-workers", "1",
            "--stealing", "nearest", "--stealing-groups", "0;1", "--grain", "0", "--window-size", "-5", "--out", outDir);

        Assert.Equal(CliApp.UsageError, code);
        Assert.Equal(string.Empty, stdout);
        string[] lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        Assert.All(lines, l => Assert.StartsWith("divcon factored: ", l, StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--stealing 'nearest' is not allowed; use all or cache-group-first.", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--stealing-groups '0;1': worker 1 does not exist with at most 1 workers", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--grain must be at least 1; got 0.", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--window-size must be at least the grain (0); got -5.", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--window-size applies only to transform-static and transform-sliding", StringComparison.Ordinal));
        Assert.Equal(5, lines.Length);
        Assert.False(Directory.Exists(outDir));
    }

    [Fact]
    public async Task GrainWithoutATransform_IsRejected()
    {
        var (code, _, stderr) = await Run("factored", "--programs", "spin", "--grain", "64", "--out", Path.Combine(_root, "g"));

        Assert.Equal(CliApp.UsageError, code);
        Assert.Contains("--grain applies only to transform-none, transform-static, transform-sliding; none of them is in --programs.", stderr, StringComparison.Ordinal);
    }
}
