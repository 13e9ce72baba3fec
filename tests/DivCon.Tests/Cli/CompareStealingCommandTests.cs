using System.Text.Json;
using DivCon.Cli;

namespace DivCon.Tests.Cli;

public sealed class CompareStealingCommandTests : IDisposable
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

    [Fact]
    public async Task ShortRun_WritesJsonAndMarkdown_WithRunsStealsAndAnova()
    {
        string outDir = Path.Combine(_root, "ok");
        var (code, stdout, stderr) = await Run("compare-stealing", "--programs", "mergesort,quicksort", "--replications", "2", "--workers", "2",
            "--size", "small", "--out", outDir);

        Assert.True(code == 0, stderr);
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "compare-stealing.json")));
        JsonElement root = doc.RootElement;
        JsonElement[] runs = root.GetProperty("runs").EnumerateArray().ToArray();
        Assert.Equal(2 * 2 * 2, runs.Length); // programs × scopes × replications
        Assert.All(runs, r => Assert.True(r.GetProperty("seconds").GetDouble() > 0));
        Assert.All(runs, r => Assert.Equal(r.GetProperty("steals").GetInt64(), r.GetProperty("localSteals").GetInt64() + r.GetProperty("remoteSteals").GetInt64()));
        Assert.Equal(["All", "CacheGroupFirst"], root.GetProperty("anova").GetProperty("columnLevels").EnumerateArray().Select(e => e.GetString()));
        Assert.Equal(7, root.GetProperty("anova").GetProperty("table").GetArrayLength());
        Assert.Equal(4, root.GetProperty("anova").GetProperty("table")[6].GetProperty("degreesOfFreedom").GetInt32()); // SSE: ab(r − 1) = 2·2·1
        Assert.Contains("CacheGroupFirst − All", root.GetProperty("contrast").GetProperty("name").GetString());
        Assert.True(File.Exists(Path.Combine(outDir, "compare-stealing.md")));
        Assert.Contains("| mergesort | CacheGroupFirst |", stdout);
        Assert.Contains("cache group", stdout);
    }

    [Fact]
    public async Task BadInput_OneLinePerProblem_Exit2_NothingWritten()
    {
        string outDir = Path.Combine(_root, "bad");
        var (code, _, stderr) = await Run("compare-stealing", "--programs", "mergesort,nosuch,mergesort", "--replications", "1", "--workers", "0",
            "--size", "thesis", "--out", outDir);

        Assert.Equal(CliApp.UsageError, code);
        string[] lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Contains(lines, l => l.Contains("unknown program 'nosuch'"));
        Assert.Contains(lines, l => l.Contains("listed more than once"));
        Assert.Contains(lines, l => l.Contains("--replications must be at least 2"));
        Assert.Contains(lines, l => l.Contains("--workers must be between 1"));
        Assert.Contains(lines, l => l.Contains("--size 'thesis' is not a size; use small, medium"));
        Assert.Equal(5, lines.Length);
        Assert.False(Directory.Exists(outDir));

        var (code1, _, stderr1) = await Run("compare-stealing", "--programs", "mergesort", "--out", outDir);
        Assert.Equal(CliApp.UsageError, code1);
        Assert.Contains("at least 2 programs", stderr1);
        Assert.False(Directory.Exists(outDir));
    }

    [Fact]
    public async Task StealingGroups_PerWorkerMakesEveryStealRemote_ExplicitOneGroupEveryStealLocal_BadGroupsExit2()
    {
        string perWorker = Path.Combine(_root, "per-worker");
        var (code, stdout, stderr) = await Run("compare-stealing", "--programs", "mergesort,quicksort", "--replications", "2", "--workers", "2",
            "--size", "small", "--stealing-groups", "per-worker", "--out", perWorker);
        Assert.True(code == 0, stderr);
        Assert.Contains("Synthetic stealing groups", stdout);
        using (JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(perWorker, "compare-stealing.json"))))
        {
            Assert.Equal("0;1", doc.RootElement.GetProperty("stealingGroups").GetString());
            JsonElement[] runs = doc.RootElement.GetProperty("runs").EnumerateArray().ToArray();
            Assert.All(runs, r => Assert.Equal(0, r.GetProperty("localSteals").GetInt64()));
            Assert.True(runs.Sum(r => r.GetProperty("remoteSteals").GetInt64()) > 0, "no steal at all in 8 two-worker runs");
        }

        string oneGroup = Path.Combine(_root, "one-group");
        (code, _, stderr) = await Run("compare-stealing", "--programs", "mergesort,quicksort", "--replications", "2", "--workers", "2",
            "--size", "small", "--stealing-groups", "0,1", "--out", oneGroup);
        Assert.True(code == 0, stderr);
        using (JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(oneGroup, "compare-stealing.json"))))
        {
            Assert.Equal("0,1", doc.RootElement.GetProperty("stealingGroups").GetString());
            Assert.All(doc.RootElement.GetProperty("runs").EnumerateArray(), r => Assert.Equal(0, r.GetProperty("remoteSteals").GetInt64()));
        }

        string bad = Path.Combine(_root, "bad-groups");
        (code, _, stderr) = await Run("compare-stealing", "--programs", "mergesort,quicksort", "--workers", "2", "--stealing-groups", "0;7", "--out", bad);
        Assert.Equal(CliApp.UsageError, code);
        Assert.Contains("--stealing-groups", stderr);
        Assert.False(Directory.Exists(bad));
    }
}
