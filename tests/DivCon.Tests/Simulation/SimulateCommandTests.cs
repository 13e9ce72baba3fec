using DivCon.Cli;

namespace DivCon.Tests.Simulation;

public sealed class SimulateCommandTests : IDisposable
{
    private readonly string _dir = Path.Combine(Path.GetTempPath(), $"divcon-sim-{Guid.NewGuid():N}");

    public void Dispose()
    {
        if (Directory.Exists(_dir))
        {
            Directory.Delete(_dir, recursive: true);
        }
    }

    private static async Task<(int Code, string Output, string Error)> Run(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        int code = await CliApp.RunAsync(args, output, error);
        return (code, output.ToString(), error.ToString());
    }

    [Fact]
    public async Task Simulate_WritesJsonCsvAndReport_AndARerunIsByteIdentical()
    {
        string[] args =
        [
            "simulate", "--cores", "2", "4", "--programs", "strassen,quicksort,mergesort", "--schemes", "shared", "oversubscribed-free",
            "dynamic-partitioned", "--size", "small", "--duration", "2s", "--sp-runs", "2", "--seed", "7",
        ];
        string first = Path.Combine(_dir, "a"), second = Path.Combine(_dir, "b");

        var (code, output, error) = await Run([.. args, "--out", first]);
        var (code2, _, _) = await Run([.. args, "--out", second]);

        Assert.Equal(0, code);
        Assert.Equal(0, code2);
        // stderr holds progress and the files written, as for every experiment command; no note, no problem.
        Assert.All(error.Split('\n', StringSplitOptions.RemoveEmptyEntries), line => Assert.Matches("^divcon simulate: (simulating|wrote) ", line));
        Assert.Contains("dynamic-partitioned", output, StringComparison.Ordinal);
        foreach (string file in new[] { "simulate.json", "simulate.csv", "report.md" })
        {
            Assert.True(File.Exists(Path.Combine(first, file)), file);
            Assert.Equal(File.ReadAllBytes(Path.Combine(first, file)), File.ReadAllBytes(Path.Combine(second, file)));
        }

        using var doc = System.Text.Json.JsonDocument.Parse(File.ReadAllText(Path.Combine(first, "simulate.json")));
        var results = doc.RootElement.GetProperty("results");
        Assert.Equal(2, results.GetArrayLength()); // one per core count
        Assert.Equal(3, results[0].GetProperty("schemes").GetArrayLength());
        string report = File.ReadAllText(Path.Combine(first, "report.md"));
        Assert.Contains("| shared |", report, StringComparison.Ordinal);
    }

    [Fact]
    public async Task BadInput_OneLinePerProblem_ExitCode2_NoFilesWritten()
    {
        string outDir = Path.Combine(_dir, "bad");
        var (code, _, error) = await Run(
            "simulate", "--cores", "0", "--programs", "nosuch", "--schemes", "bogus", "--duration", "0s", "--sp-runs", "0", "--repeat", "0", "--scalability", "guess", "--out", outDir);

        Assert.Equal(CliApp.UsageError, code);
        string[] lines = error.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Contains(lines, l => l.Contains("--cores", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("nosuch", StringComparison.Ordinal) && l.Contains("mergesort", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("bogus", StringComparison.Ordinal) && l.Contains("oversubscribed-free", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--duration", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--sp-runs", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--repeat", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--scalability takes model or online; got 'guess'", StringComparison.Ordinal));
        Assert.DoesNotContain("   at ", error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(outDir));
    }

    [Fact]
    public async Task UnwritableOutputFolder_IsAUsageError()
    {
        string file = Path.Combine(_dir, "plain-file");
        Directory.CreateDirectory(_dir);
        File.WriteAllText(file, "x");

        var (code, _, error) = await Run("simulate", "--cores", "2", "--programs", "quicksort", "--size", "small", "--out", Path.Combine(file, "sub"));

        Assert.Equal(CliApp.UsageError, code);
        Assert.Contains("--out: cannot write to", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ModelsFolder_HandEditedModelIsUsed_AndAnInvalidOneIsReported()
    {
        string models = Path.Combine(_dir, "models");
        Directory.CreateDirectory(models);
        File.WriteAllText(Path.Combine(models, "toy.json"), DivCon.Simulation.ModelStore.ToJson(SimModels.Parallel("toy", 8_000_000)));
        File.WriteAllText(Path.Combine(models, "broken.json"), "{ \"name\": \"broken\" }");

        var ok = await Run("simulate", "--cores", "4", "--programs", "toy", "--schemes", "shared", "--models", models,
            "--size", "model", "--duration", "100ms", "--out", Path.Combine(_dir, "ok"));
        var bad = await Run("simulate", "--cores", "4", "--programs", "broken", "--models", models, "--size", "model",
            "--out", Path.Combine(_dir, "bad"));

        Assert.Equal(0, ok.Code);
        Assert.Contains("toy", ok.Output, StringComparison.Ordinal);
        Assert.Equal(CliApp.UsageError, bad.Code);
        Assert.Contains("broken", bad.Error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("30s", 30_000_000_000L)]
    [InlineData("2m", 120_000_000_000L)]
    [InlineData("500ms", 500_000_000L)]
    [InlineData("20us", 20_000L)]
    [InlineData("100ns", 100L)]
    [InlineData("1.5", 1_500_000_000L)]
    public void Durations_ParseWithUnits(string text, long expected)
    {
        var problems = new List<string>();
        Assert.Equal(expected, DivCon.Cli.Commands.DurationParser.Nanoseconds(text, "--duration", problems));
        Assert.Empty(problems);
    }
}
