using System.CommandLine;
using System.Globalization;
using System.Text.Json;
using DivCon.Cli;
using DivCon.Cli.Commands;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Factored;
using DivCon.Harness.Programs;
using DivCon.Reporting.Plotting;
using DivCon.Scheduling;
using DivCon.Tests.Factored;

namespace DivCon.Tests.Cli;

public sealed class FactoredCommandTests : IDisposable
{
    private static readonly string[] Curves = ["linear", "maximal", "idleSpecific", "inflationSpecific", "actual", "elision"];
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

    private static int TwoOrFewer => Math.Min(2, ThreadAffinity.GetProcessAffinity().Count);

    // Must show 4 (end to end on small sizes, real timing) and 3 (valid PNG whose series are the JSON's numbers).
    [Fact]
    public async Task SmallRun_WritesJsonCsvAndOnePngPerProgram_WhosePlottedSeriesAreTheJsonNumbers()
    {
        string outDir = Path.Combine(_root, "ok");
        int n = TwoOrFewer;

        var (code, stdout, stderr) = await Run("factored", "--programs", "quicksort,workinflation", "--size", "small",
            "--runs", "2", "--warmup", "0", "--max-workers", n.ToString(CultureInfo.InvariantCulture), "--out", outDir);

        Assert.True(code == 0, stderr);
        Assert.Contains("quicksort: T_s", stdout);
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "factored.json")));
        JsonElement root = doc.RootElement;
        Assert.Equal("factored", root.GetProperty("kind").GetString());
        Assert.Equal(2, root.GetProperty("settings").GetProperty("runs").GetInt32());
        var programs = root.GetProperty("programs").EnumerateArray().ToArray();
        Assert.Equal(["quicksort", "workinflation"], programs.Select(p => p.GetProperty("program").GetString()));
        foreach (JsonElement program in programs)
        {
            string name = program.GetProperty("program").GetString()!;
            double ts = program.GetProperty("ts").GetDouble();
            double t1 = program.GetProperty("t1").GetDouble();
            Assert.True(ts > 0 && t1 > 0 && program.GetProperty("telision").GetDouble() > 0, name);
            var points = program.GetProperty("points").EnumerateArray().ToArray();
            Assert.Equal(Enumerable.Range(1, n).Select(p => (double)p), points.Select(p => p.GetProperty("p").GetDouble()));
            foreach (JsonElement point in points)
            {
                double p = point.GetProperty("p").GetDouble();
                double tp = point.GetProperty("tp").GetDouble();
                double ip = point.GetProperty("ip").GetDouble();
                // The identity holds for the written numbers.
                Assert.Equal(p * tp, t1 + ip + point.GetProperty("fp").GetDouble(), 1e-9);
                Assert.Equal(p * tp - ip, point.GetProperty("wp").GetDouble(), 1e-9);
                Assert.Equal(ts / tp, point.GetProperty("speedups").GetProperty("actual").GetDouble(), 1e-9);
                Assert.All(Curves, c => Assert.True(point.GetProperty("speedups").TryGetProperty(c, out _), c));
            }

            Assert.Equal(2, program.GetProperty("samples").GetProperty("sequential").GetArrayLength());

            // The PNG: signature, non-trivial size, decodable.
            string png = Path.Combine(outDir, $"factored-{name}.png");
            byte[] bytes = await File.ReadAllBytesAsync(png);
            Assert.Equal(new byte[] { 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A }, bytes.Take(8));
            Assert.True(bytes.Length > 10_000, $"{png}: {bytes.Length} bytes");
            using var image = SkiaSharp.SKBitmap.Decode(bytes);
            Assert.Equal(Figure.DefaultWidth, image.Width);

            // The figure JSON beside it: each curve's points are the factored.json numbers.
            var plot = Assert.IsType<LinePlot>(Figure.FromJson(await File.ReadAllTextAsync(Path.Combine(outDir, $"factored-{name}.plot.json"))));
            Assert.Equal(Curves.Length, plot.Series.Count);
            foreach (string curve in Curves)
            {
                LineSeries series = plot.Series.Single(s => s.Name == DivCon.Harness.Plots.FactoredPlots.SeriesName(curve));
                Assert.Equal(points.Select(p => p.GetProperty("p").GetDouble()), series.X);
                Assert.Equal(points.Select(p => p.GetProperty("speedups").GetProperty(curve).GetDouble()), series.Y);
            }
        }

        string[] csv = await File.ReadAllLinesAsync(Path.Combine(outDir, "factored.csv"));
        Assert.Equal(DivCon.Tests.Factored.FactoredStealingTests.FactoredCsvHeader, csv[0]);
        Assert.Equal(1 + 2 * n, csv.Length);
    }

    [Fact]
    public async Task InjectedSource_WritesExactlyTheScriptedDecomposition_AndPlotsNoneWritesNoPng()
    {
        string outDir = Path.Combine(_root, "fake");
        var root = new RootCommand();
        root.Subcommands.Add(FactoredCommand.Create(DivCon.Cli.Programs.SamplePrograms.Workload,
            () => new ScriptedMeasurementSource(ts: 2, te: 2.5, t1: 3, overhead: 0.25, idlePerExtraWorker: 0.1, runPrograms: true)));
        var output = new StringWriter();
        var error = new StringWriter();

        int code = await root.Parse(["factored", "--programs", "spin", "--size", "small", "--runs", "3", "--max-workers", "1", "--plots", "none", "--out", outDir])
            .InvokeAsync(new InvocationConfiguration { Output = output, Error = error }).WaitAsync(TimeSpan.FromMinutes(1));

        Assert.True(code == 0, error.ToString());
        Assert.Equal(["factored.csv", "factored.json"], Directory.GetFiles(outDir).Select(Path.GetFileName).Order());
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "factored.json")));
        JsonElement program = Assert.Single(doc.RootElement.GetProperty("programs").EnumerateArray());
        Assert.Equal(2, program.GetProperty("ts").GetDouble());
        Assert.Equal(3, program.GetProperty("t1").GetDouble());
        Assert.Equal(JsonValueKind.Null, program.GetProperty("telision").ValueKind); // spin is not a skeleton program
        JsonElement point = Assert.Single(program.GetProperty("points").EnumerateArray());
        Assert.Equal(1, point.GetProperty("p").GetDouble());
        Assert.Equal(2.0 / 3, point.GetProperty("speedups").GetProperty("maximal").GetDouble(), 1e-12);
        Assert.Equal(JsonValueKind.Null, point.GetProperty("speedups").GetProperty("elision").ValueKind);
    }

    [Fact]
    public async Task BadInput_EveryProblemOnItsOwnLine_Exit2_NothingWritten()
    {
        string outDir = Path.Combine(_root, "bad");

        var (code, stdout, stderr) = await Run("factored", "--programs", "bubblesort,quicksort,quicksort", "--size", "huge",
            "--runs", "0", "--warmup", "-1", "--max-workers", "0", "--plots", "svg", "--out", outDir);

        Assert.Equal(CliApp.UsageError, code);
        Assert.Equal(string.Empty, stdout);
        string[] lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        Assert.All(lines, l => Assert.StartsWith("divcon factored: ", l));
        Assert.Contains(lines, l => l.Contains("unknown program 'bubblesort'", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("'quicksort' is listed more than once", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--size 'huge'", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--runs must be at least 1", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--warmup", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--max-workers must be between 1 and", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("--plots 'svg'", StringComparison.Ordinal));
        Assert.Equal(7, lines.Length);
        Assert.False(Directory.Exists(outDir));
        Assert.DoesNotContain("   at ", stderr);
    }

    [Fact]
    public async Task WorkersOverTheCpuBudget_AndAnUnwritableOut_AreRejected()
    {
        int budget = CpuBudget.Detect().Cores;
        string file = Path.Combine(_root, "a-file");
        Directory.CreateDirectory(_root);
        await File.WriteAllTextAsync(file, "x");

        var (code1, _, err1) = await Run("factored", "--programs", "spin", "--max-workers", (budget + 1).ToString(CultureInfo.InvariantCulture),
            "--out", Path.Combine(_root, "x"));
        var (code2, _, err2) = await Run("factored", "--programs", "spin", "--out", file);

        Assert.Equal(CliApp.UsageError, code1);
        string line = Assert.Single(err1.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith($"divcon factored: --max-workers {budget + 1}: {budget + 1} workers exceed the CPU budget of {budget} (", line, StringComparison.Ordinal);
        Assert.EndsWith($"Use at most {budget}, or add --over-budget to run anyway.", line.TrimEnd(), StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(_root, "x")));
        Assert.Equal(CliApp.UsageError, code2);
        Assert.Contains("--out:", err2);
    }

    // Issue 21: --over-budget lets a run exceed the budget with a note, and the result records the budget it ran under.
    [Fact]
    public async Task OverBudget_RunsAboveTheBudgetWithANote_AndTheResultRecordsTheBudget()
    {
        CpuBudget budget = CpuBudget.Detect();
        int n = budget.Cores + 1;
        string outDir = Path.Combine(_root, "over");

        var (code, stdout, stderr) = await Run("factored", "--programs", "spin", "--size", "small", "--runs", "1", "--warmup", "0",
            "--max-workers", n.ToString(CultureInfo.InvariantCulture), "--over-budget", "--plots", "none", "--out", outDir);

        Assert.True(code == 0, stderr);
        Assert.Contains($"divcon factored: note: --max-workers {n} with --over-budget: {n} workers exceed the CPU budget of {budget.Cores}", stderr, StringComparison.Ordinal);
        Assert.Contains($"CPU budget: {budget}", stdout, StringComparison.Ordinal);
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "factored.json")));
        JsonElement root = doc.RootElement;
        Assert.Equal(Enumerable.Range(1, n), root.GetProperty("settings").GetProperty("workerCounts").EnumerateArray().Select(e => e.GetInt32()));
        JsonElement recorded = root.GetProperty("machine").GetProperty("budget");
        Assert.Equal(budget.Cores, recorded.GetProperty("cores").GetInt32());
        Assert.Equal(budget.AllowedProcessors, recorded.GetProperty("allowedProcessors").EnumerateArray().Select(e => e.GetInt32()));
        Assert.Equal(budget.Reason, recorded.GetProperty("reason").GetString());
    }

    // Issue 10: --stealing / --stealing-groups reach the schedulers and are recorded; the transform-* programs take
    // --grain / --window-size.
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
        JsonElement stealing = doc.RootElement.GetProperty("stealing");
        Assert.Equal("cache-group-first", stealing.GetProperty("scope").GetString());
        Assert.Equal("per-worker", stealing.GetProperty("groups").GetString());
        Assert.Equal(n, stealing.GetProperty("workerGroups")[n - 1].GetProperty("groups").GetString()!.Split(';').Length);
        var programs = doc.RootElement.GetProperty("programs").EnumerateArray().ToArray();
        Assert.Equal(["transform-none", "transform-sliding"], programs.Select(p => p.GetProperty("program").GetString()));
        Assert.Equal(JsonValueKind.Null, programs[0].GetProperty("telision").ValueKind);
        Assert.StartsWith("window none, grain 64 blocks", doc.RootElement.GetProperty("programSettings").GetProperty("transform-none").GetString(), StringComparison.Ordinal);
        foreach (JsonElement point in programs.SelectMany(p => p.GetProperty("points").EnumerateArray()))
        {
            JsonElement steals = point.GetProperty("steals");
            // One worker per group: no steal can be local.
            Assert.Equal(0, steals.GetProperty("localSteals").GetDouble());
            Assert.Equal(steals.GetProperty("steals").GetDouble(), steals.GetProperty("remoteSteals").GetDouble());
            Assert.Equal(point.GetProperty("ip").GetDouble(),
                steals.GetProperty("schedulingOverheadSeconds").GetDouble() + steals.GetProperty("waitingSeconds").GetDouble(), 1e-9);
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
        Assert.Equal("0,1", doc.RootElement.GetProperty("stealing").GetProperty("groups").GetString());
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

    // Issue 15: --nested reaches the samples that have a parallel split and merge and is recorded per program.
    [Fact]
    public async Task Nested_ReachesTheSamples_AndIsRecordedPerProgram()
    {
        string outDir = Path.Combine(_root, "nested");

        var (code, stdout, stderr) = await Run("factored", "--programs", "strassen,quicksort,sumofsquares", "--size", "small", "--runs", "1",
            "--warmup", "0", "--max-workers", TwoOrFewer.ToString(CultureInfo.InvariantCulture), "--plots", "none", "--nested", "off", "--out", outDir);

        Assert.True(code == 0, stderr);
        Assert.Contains("nested parallelism off", stdout, StringComparison.Ordinal);
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "factored.json")));
        JsonElement settings = doc.RootElement.GetProperty("programSettings");
        Assert.StartsWith("nested parallelism off", settings.GetProperty("strassen").GetString(), StringComparison.Ordinal);
        Assert.StartsWith("nested parallelism off", settings.GetProperty("quicksort").GetString(), StringComparison.Ordinal);
        Assert.False(settings.TryGetProperty("sumofsquares", out _));
    }

    [Fact]
    public async Task BadNested_IsRejected_Exit2_NothingWritten()
    {
        string outDir = Path.Combine(_root, "bad-nested");

        var (code, stdout, stderr) = await Run("factored", "--programs", "strassen", "--nested", "maybe", "--out", outDir);

        Assert.Equal(CliApp.UsageError, code);
        Assert.Equal(string.Empty, stdout);
        Assert.Equal("divcon factored: --nested 'maybe' is not allowed; use on or off.", stderr.Trim());
        Assert.False(Directory.Exists(outDir));
    }
}
