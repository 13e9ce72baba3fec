using System.Text.Json;
using DivCon.Cli;
using DivCon.Harness.Open;
using DivCon.Harness.Reporting;

namespace DivCon.Tests.Cli;

/// <summary><c>divcon open</c>: a short run writes every file with consistent contents; bad input gives one line per problem, exit 2, nothing written.</summary>
public sealed class OpenCommandTests : IDisposable
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
        int code = await CliApp.RunAsync(args, output, error).WaitAsync(TimeSpan.FromMinutes(4));
        return (code, output.ToString(), error.ToString());
    }

    [Fact]
    public async Task A_short_run_writes_json_csv_report_and_a_CDF_per_scheme_from_the_same_arrivals()
    {
        string outDir = Path.Combine(_root, "ok");
        var (code, stdout, stderr) = await Run("open", "--rate", "30", "--duration", "600ms", "--repeat", "2", "--alone-runs", "1",
            "--schemes", "tpl-default,shared,dynamic-partitioned", "--batch-program", "sumofsquares", "--out", outDir);

        Assert.True(code == 0, stderr);
        OpenResult result = ResultKinds.Open.Read(await File.ReadAllTextAsync(Path.Combine(outDir, "open.json")));
        Assert.Equal(["tpl-default", "shared", "dynamic-partitioned"], result.Schemes);
        Assert.Equal(2, result.Repetitions.Count);
        Assert.All(result.Classes, c => Assert.True(c.AloneMs > 0 && c.Scalability > 0));
        foreach (OpenRepetition r in result.Repetitions)
        {
            // Every scheme ran this repetition's arrivals: one turnaround per job, each positive.
            Assert.Equal(3, r.Runs.Count);
            Assert.All(r.Runs, run => Assert.Equal(r.Arrivals.Count, run.TurnaroundMs.Count));
            Assert.All(r.Runs, run => Assert.All(run.TurnaroundMs, t => Assert.True(t > 0)));
        }

        // The summary and comparisons are the pure analysis of the raw times in the file.
        Assert.Equal(
            JsonSerializer.Serialize(OpenAnalysis.Summarize(result.Classes, result.Schemes, result.Repetitions), HarnessJsonContext.Files.IReadOnlyListOpenSchemeSummary),
            JsonSerializer.Serialize(result.Summary, HarnessJsonContext.Files.IReadOnlyListOpenSchemeSummary));
        Assert.Equal(2 * (result.Classes.Count + 1), result.Comparisons.Count); // 2 schemes × (a p99 per class + throughput)

        string[] csv = (await File.ReadAllLinesAsync(Path.Combine(outDir, "open.csv"))).Where(l => l.Length > 0).ToArray();
        Assert.Equal(1 + (2 * 3 * result.Classes.Count), csv.Length);
        Assert.StartsWith("repetition,scheme,class,jobs,slowdown_p50", csv[0]);
        string report = await File.ReadAllTextAsync(Path.Combine(outDir, "report.md"));
        Assert.Contains("## Job classes alone", report);
        Assert.Contains("| dynamic-partitioned | request |", report);
        foreach (string scheme in result.Schemes)
        {
            var png = new FileInfo(Path.Combine(outDir, $"slowdown-cdf-{scheme}.png"));
            Assert.True(png.Exists && png.Length > 1000, $"{png.Name} missing or empty");
            Assert.True(File.Exists(Path.Combine(outDir, $"slowdown-cdf-{scheme}.plot.json")));
        }

        Assert.Contains("throughput (jobs/s)", stdout);
    }

    [Fact]
    public async Task A_trace_is_run_as_given_with_chunked_loops()
    {
        string trace = Path.Combine(_root, "trace.txt");
        Directory.CreateDirectory(_root);
        await File.WriteAllTextAsync(trace, "# seconds class\n0.00 request\n0.05 report\n0.02, request\n");
        string outDir = Path.Combine(_root, "trace");
        var (code, _, stderr) = await Run("open", "--trace", trace, "--repeat", "1", "--alone-runs", "1", "--schemes", "shared,equal-shares",
            "--baseline", "shared", "--mix", "batch=0", "--loops", "chunked", "--plots", "none", "--out", outDir);

        Assert.True(code == 0, stderr);
        OpenResult result = ResultKinds.Open.Read(await File.ReadAllTextAsync(Path.Combine(outDir, "open.json")));
        Assert.Equal([(0.0, "request"), (0.02, "request"), (0.05, "report")], result.Repetitions[0].Arrivals.Select(a => (a.AtSeconds, a.Class)));
        Assert.Equal(["request", "report"], result.Classes.Select(c => c.Name));
        Assert.Null(result.Settings.Rate);
        Assert.Equal(OpenLoops.Chunked, result.Settings.Loops);
        Assert.All(result.Classes, c => Assert.Contains("ChunkedLoops.ForAsync", c.Description));
        Assert.Contains("loops chunked", await File.ReadAllTextAsync(Path.Combine(outDir, "report.md")));
        Assert.False(File.Exists(Path.Combine(outDir, "slowdown-cdf-shared.png")));
    }

    [Fact]
    public async Task Bad_input_gives_one_line_per_problem_exit_2_and_writes_nothing()
    {
        string trace = Path.Combine(_root, "bad-trace.txt");
        Directory.CreateDirectory(_root);
        await File.WriteAllTextAsync(trace, "0.1 request\nsoon request\n0.2 lunch\n0.3\n");
        string outDir = Path.Combine(_root, "bad");
        var (code, stdout, stderr) = await Run("open", "--trace", trace, "--rate", "0", "--repeat", "0", "--schemes", "shared,oversubscribed-pinned,nope",
            "--mix", "request=-1,dinner=2", "--batch-program", "nosuch", "--interval", "fast", "--loops", "sometimes", "--out", outDir);

        Assert.Equal(CliApp.UsageError, code);
        Assert.Equal(string.Empty, stdout);
        string[] lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Contains(lines, l => l.Contains("--trace replaces --rate and --duration"));
        Assert.Contains(lines, l => l.Contains("--rate must be a positive number"));
        Assert.Contains(lines, l => l.Contains("--repeat must be at least 1"));
        Assert.Contains(lines, l => l.Contains("--interval"));
        Assert.Contains(lines, l => l.Contains("'oversubscribed-pinned' cannot run an open workload"));
        Assert.Contains(lines, l => l.Contains("unknown scheme 'nope'"));
        Assert.Contains(lines, l => l.Contains("--baseline 'tpl-default' is not one of the schemes run"));
        Assert.Contains(lines, l => l.Contains("--mix: 'request=-1'"));
        Assert.Contains(lines, l => l.Contains("--mix: unknown class 'dinner'"));
        Assert.Contains(lines, l => l.Contains("--batch-program: unknown program 'nosuch'"));
        Assert.Contains(lines, l => l.Contains("--loops takes parallel or chunked; got 'sometimes'"));
        Assert.All(lines, l => Assert.StartsWith("divcon open: ", l));
        Assert.DoesNotContain("   at ", stderr);
        Assert.False(Directory.Exists(outDir));
    }

    [Fact]
    public async Task A_result_written_before_the_loops_setting_reads_as_Parallel_For()
    {
        // The saved result with its settings' "loops" taken out, as files written before the setting existed are.
        var saved = System.Text.Json.Nodes.JsonNode.Parse(await File.ReadAllTextAsync(Path.Combine(DivCon.Tests.Packaging.RepositoryLayout.Root, "docs/results/open/open.json")))!;
        var settings = saved["settings"]!.AsObject();
        string? key = settings.Select(p => p.Key).FirstOrDefault(k => string.Equals(k, "loops", StringComparison.OrdinalIgnoreCase));
        Assert.NotNull(key);
        Assert.Equal(OpenLoops.Parallel, settings[key]!.GetValue<string>());
        settings.Remove(key);
        OpenResult result = ResultKinds.Open.Read(saved.ToJsonString());
        Assert.Equal(OpenLoops.Parallel, result.Settings.Loops);
    }

    [Fact]
    public async Task Bad_trace_lines_are_each_reported()
    {
        string trace = Path.Combine(_root, "bad-lines.txt");
        Directory.CreateDirectory(_root);
        await File.WriteAllTextAsync(trace, "0.1 request\nsoon request\n0.2 lunch\n0.3\n");
        string outDir = Path.Combine(_root, "bad-lines");
        var (code, _, stderr) = await Run("open", "--trace", trace, "--out", outDir);

        Assert.Equal(CliApp.UsageError, code);
        string[] lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(3, lines.Length);
        Assert.Contains(lines, l => l.Contains("line 2: 'soon' is not a non-negative number of seconds"));
        Assert.Contains(lines, l => l.Contains("line 3: unknown job class 'lunch'"));
        Assert.Contains(lines, l => l.Contains("line 4: expected 'seconds class'"));
        Assert.False(Directory.Exists(outDir));
    }
}
