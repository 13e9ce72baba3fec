using System.CommandLine;
using System.Text.Json;
using DivCon.Cli;
using DivCon.Cli.Commands;
using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;
using DivCon.Samples;

namespace DivCon.Tests.Cli;

public sealed class CyclicCommandTests : IDisposable
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
    public async Task PartitionedScheme_WritesItsAllocationPlotAndChromeTraceBesideTheResults()
    {
        string outDir = Path.Combine(_root, "alloc");

        var (code, _, stderr) = await Run("cyclic", "--programs", "quicksort,mergesort", "--schemes", "dynamic-partitioned,tpl-default",
            "--duration", "2s", "--sp-runs", "2", "--warmup", "0", "--max-warmup", "2", "--size", "small", "--out", outDir);

        Assert.True(code == 0, stderr);
        string png = Path.Combine(outDir, "allocation-dynamic-partitioned.png");
        byte[] bytes = await File.ReadAllBytesAsync(png);
        Assert.Equal(new byte[] { 0x89, (byte)'P', (byte)'N', (byte)'G' }, bytes[..4]);
        Assert.True(bytes.Length > 5_000, $"{png} is only {bytes.Length} bytes");
        using JsonDocument trace = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "allocation-dynamic-partitioned.trace.json")));
        string traceText = trace.RootElement.GetRawText();
        Assert.Contains("quicksort", traceText, StringComparison.Ordinal);
        Assert.Contains("mergesort", traceText, StringComparison.Ordinal);

        // Only MultiProgramScheduler schemes have a timeline.
        Assert.False(File.Exists(Path.Combine(outDir, "allocation-tpl-default.png")));
    }

    [Fact]
    public async Task ShortRun_WritesValidJsonWithEveryField_CsvReportAndTable()
    {
        string outDir = Path.Combine(_root, "ok");

        // Run again (at most 3 times) only when a stalled process left a program without a run (StalledPhaseRetry).
        var (code, stdout, stderr) = await StalledPhaseRetry.RunAsync(outDir, () => Run("cyclic", "--programs", "strassen,quicksort,mergesort", "--schemes", "tpl-default",
            "--duration", "3s", "--sp-runs", "3", "--warmup", "0", "--size", "small", "--out", outDir));

        Assert.True(code == 0, stderr);
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "cyclic.json")));
        JsonElement root = doc.RootElement;
        Assert.Equal("cyclic", root.GetProperty("kind").GetString());
        Assert.True(root.GetProperty("machine").GetProperty("processorCount").GetInt32() > 0);
        Assert.True(root.GetProperty("machine").GetProperty("affinity").GetArrayLength() > 0);
        Assert.False(string.IsNullOrEmpty(root.GetProperty("machine").GetProperty("runtime").GetString()));
        Assert.Equal(3, root.GetProperty("configuration").GetProperty("durationSeconds").GetDouble());
        Assert.Equal(3, root.GetProperty("configuration").GetProperty("spRuns").GetInt32());

        JsonElement scheme = Assert.Single(root.GetProperty("schemes").EnumerateArray());
        Assert.Equal("tpl-default", scheme.GetProperty("scheme").GetString());
        foreach (string metric in new[] { "antt", "mntt", "stp" })
        {
            JsonElement m = scheme.GetProperty(metric);
            Assert.True(m.GetProperty("mean").GetDouble() > 0, metric);
            Assert.True(m.TryGetProperty("ci99", out _), metric);
            Assert.Equal(1, m.GetProperty("n").GetInt32()); // one invocation: no interval
            Assert.Equal(JsonValueKind.Null, m.GetProperty("ci99").ValueKind);
        }

        var programs = scheme.GetProperty("programs").EnumerateArray().ToArray();
        Assert.Equal(["strassen", "quicksort", "mergesort"], programs.Select(p => p.GetProperty("program").GetString()));
        foreach (JsonElement p in programs)
        {
            double csp = p.GetProperty("csp").GetProperty("mean").GetDouble();
            double cmp = p.GetProperty("cmp").GetProperty("mean").GetDouble();
            int runs = p.GetProperty("runs").GetInt32();
            double ntt = p.GetProperty("ntt").GetProperty("mean").GetDouble();
            double np = p.GetProperty("np").GetProperty("mean").GetDouble();
            Assert.True(csp > 0 && cmp > 0 && runs > 0);
            Assert.Equal(cmp / csp, ntt, 9);
            Assert.Equal(1 / ntt, np, 9);
            Assert.Equal(3, p.GetProperty("csp").GetProperty("n").GetInt32()); // one invocation: its 3 C^SP runs
            Assert.Equal(JsonValueKind.Object, p.GetProperty("csp").GetProperty("ci99").ValueKind);
            Assert.True(p.GetProperty("csp").GetProperty("ci99").GetProperty("upper").GetDouble() >= p.GetProperty("csp").GetProperty("ci99").GetProperty("lower").GetDouble());
            Assert.True(p.GetProperty("ntt").TryGetProperty("ci99", out _));
            Assert.True(p.GetProperty("np").TryGetProperty("ci99", out _));
        }

        // System metrics agree with the per-program values of the single repetition.
        double[] ntts = programs.Select(p => p.GetProperty("ntt").GetProperty("mean").GetDouble()).ToArray();
        Assert.Equal(ntts.Average(), scheme.GetProperty("antt").GetProperty("mean").GetDouble(), 9);
        Assert.Equal(ntts.Max(), scheme.GetProperty("mntt").GetProperty("mean").GetDouble(), 9);
        Assert.Equal(ntts.Sum(x => 1 / x), scheme.GetProperty("stp").GetProperty("mean").GetDouble(), 9);

        // Every raw time is in the file: the C^SP window and its warm-up, and every C^MP run.
        JsonElement invocation = Assert.Single(root.GetProperty("invocations").EnumerateArray());
        Assert.Equal(Environment.ProcessId, invocation.GetProperty("processId").GetInt32()); // --repeat 1 runs in this process
        Assert.Equal(3, invocation.GetProperty("programs")[0].GetProperty("spSeconds").GetArrayLength());
        Assert.Equal(programs[0].GetProperty("runs").GetInt32(), invocation.GetProperty("schemes")[0].GetProperty("programs")[0].GetProperty("seconds").GetArrayLength());

        string csv = await File.ReadAllTextAsync(Path.Combine(outDir, "cyclic.csv"));
        Assert.StartsWith("scheme,program,metric,mean,ci99_lo,ci99_hi,rsd,n,basis\n", csv, StringComparison.Ordinal);
        Assert.Contains("tpl-default,quicksort,ntt,", csv, StringComparison.Ordinal);
        Assert.Contains("tpl-default,,antt,", csv, StringComparison.Ordinal);
        Assert.Contains("| tpl-default |", await File.ReadAllTextAsync(Path.Combine(outDir, "report.md")), StringComparison.Ordinal);

        Assert.Contains("NTT [99 % CI]", stdout, StringComparison.Ordinal);
        Assert.Contains("Comparisons: none with 1 invocation.", stdout, StringComparison.Ordinal);
        Assert.Contains("ANTT", stdout, StringComparison.Ordinal);
        Assert.Contains("tpl-default", stdout, StringComparison.Ordinal);
        Assert.DoesNotContain(" s] inv 1/1", stdout, StringComparison.Ordinal); // progress lines go to stderr, not into the table
        Assert.Contains("runs: strassen", stderr, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFiles(outDir, "*.tmp"));
    }

    [Fact]
    public async Task Symmetric_ShortRun_NamesTheInstances()
    {
        string outDir = Path.Combine(_root, "sym");

        var (code, _, stderr) = await Run("symmetric", "--program", "spin", "--instances", "2", "--schemes", "all",
            "--duration", "1s", "--sp-runs", "2", "--warmup", "0", "--max-warmup", "2", "--size", "small", "--out", outDir);

        Assert.True(code == 0, stderr);
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "symmetric.json")));
        Assert.Equal("symmetric", doc.RootElement.GetProperty("kind").GetString());
        var names = doc.RootElement.GetProperty("schemes")[0].GetProperty("programs").EnumerateArray().Select(p => p.GetProperty("program").GetString());
        Assert.Equal(["spin#1", "spin#2"], names);

        // Every scheme ran, and each reports its schedulers: worker counts, pinning, and the pool for partitioned ones.
        JsonElement[] schemes = doc.RootElement.GetProperty("schemes").EnumerateArray().ToArray();
        Assert.Equal(BuiltInSchemes.CreateRegistry().All.Select(s => s.Name).Order(), schemes.Select(s => s.GetProperty("scheme").GetString()).Order());
        foreach (JsonElement scheme in schemes)
        {
            string name = scheme.GetProperty("scheme").GetString()!;
            JsonElement[] schedulers = scheme.GetProperty("schedulers").EnumerateArray().ToArray();
            Assert.Equal(2, schedulers.Length);
            Assert.All(schedulers, s => Assert.Equal(JsonValueKind.Number, s.GetProperty("workers").ValueKind));
            bool partitioned = BuiltInSchemes.CreateRegistry().Find(name)!.RequiresScalability;
            Assert.All(schedulers, s => Assert.Equal(partitioned ? JsonValueKind.Number : JsonValueKind.Null, s.GetProperty("poolId").ValueKind));
            Assert.All(schedulers, s => Assert.Equal(partitioned ? JsonValueKind.Number : JsonValueKind.Null, s.GetProperty("movesIn").ValueKind));
            if (name != "tpl-default")
            {
                Assert.All(schedulers, s => Assert.Equal(JsonValueKind.Number, s.GetProperty("idleSeconds").ValueKind));
                Assert.All(schedulers, s => Assert.Equal(JsonValueKind.Number, s.GetProperty("steals").ValueKind));
            }
        }
    }

    [Theory]
    [InlineData("unknown program 'nosuch'", "--programs", "spin,nosuch")]
    [InlineData("unknown scheme 'fastest'", "--schemes", "fastest")]
    [InlineData("--duration must be positive", "--duration", "0s")]
    [InlineData("--duration 'soon' is not a duration", "--duration", "soon")]
    [InlineData("--duration '-5s' is not a duration", "--duration=-5s")]
    [InlineData("--sp-runs must be at least 2", "--sp-runs", "1")]
    [InlineData("--repeat must be at least 1 or 'auto'", "--repeat", "-1")]
    [InlineData("--repeat must be at least 1 or 'auto'; got 'often'", "--repeat", "often")]
    [InlineData("--detect 'lots' is not a percentage", "--detect", "lots")]
    [InlineData("--detect '5' is not a percentage", "--detect", "5")]
    [InlineData("--steady-cv '0%' is not a percentage", "--steady-cv", "0%")]
    [InlineData("--max-warmup must be 0 or more", "--max-warmup", "-1")]
    [InlineData("--seq-runs must be at least 1", "--seq-runs", "0")]
    [InlineData("--scalability takes measured or online; got 'guess'", "--scalability", "guess")]
    [InlineData("--baseline 'fastest' is not one of the schemes run", "--baseline", "fastest")]
    [InlineData("--size 'huge' is not a size", "--size", "huge")]
    [InlineData("--cores must be between 1 and", "--cores", "0")]
    public async Task BadInput_OneClearLine_ExitCode2_NothingWritten(string expected, params string[] bad)
    {
        string outDir = Path.Combine(_root, "bad");
        // The valid defaults of this test, minus the option under test (given once, by `bad`).
        var good = new Dictionary<string, string> { ["--programs"] = "spin", ["--schemes"] = "tpl-default", ["--size"] = "small", ["--duration"] = "1s" };
        string badOption = bad[0].Split('=')[0];
        string[] args = ["cyclic", .. good.Where(kv => kv.Key != badOption).SelectMany(kv => new[] { kv.Key, kv.Value }), "--out", outDir, .. bad];

        var (code, stdout, stderr) = await Run(args);

        Assert.Equal(CliApp.UsageError, code);
        string line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(expected, line, StringComparison.Ordinal);
        Assert.StartsWith("divcon cyclic: ", line, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", stderr, StringComparison.Ordinal);
        Assert.Equal(string.Empty, stdout);
        Assert.False(Directory.Exists(outDir));
    }

    [Fact]
    public async Task BadInput_UnknownNames_ListTheValidOnes()
    {
        var (_, _, programErr) = await Run("cyclic", "--programs", "nosuch", "--out", Path.Combine(_root, "x"));
        var (_, _, schemeErr) = await Run("cyclic", "--programs", "spin", "--schemes", "nosuch", "--out", Path.Combine(_root, "x"));

        foreach (string name in DivCon.Cli.Programs.SamplePrograms.Workload.All.Select(e => e.Name))
        {
            Assert.Contains(name, programErr, StringComparison.Ordinal);
        }

        foreach (string name in BuiltInSchemes.CreateRegistry().All.Select(s => s.Name))
        {
            Assert.Contains(name, schemeErr, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task BadInput_SeveralMistakes_EachOnItsOwnLine()
    {
        var (code, _, stderr) = await Run("cyclic", "--programs", "nosuch", "--schemes", "fastest", "--duration", "0", "--sp-runs", "0",
            "--out", Path.Combine(_root, "many"));

        Assert.Equal(CliApp.UsageError, code);
        Assert.Equal(4, stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
    }

    [Theory]
    [InlineData("--repeat auto: the pilot needs at least 2 invocations", "--pilot", "1")]
    [InlineData("--repeat auto: the cap (2) must be at least the pilot (3)", "--max-repeat", "2")]
    public async Task BadInput_AutoRepeat_OneClearLine(string expected, params string[] bad)
    {
        string outDir = Path.Combine(_root, "bad-auto");

        var (code, _, stderr) = await Run(["cyclic", "--programs", "spin", "--schemes", "tpl-default", "--size", "small", "--repeat", "auto", "--out", outDir, .. bad]);

        Assert.Equal(CliApp.UsageError, code);
        Assert.Contains(expected, Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
        Assert.False(Directory.Exists(outDir));
    }

    [Fact]
    public async Task BadInput_OutputFolderThatIsAFile_ExitCode2()
    {
        Directory.CreateDirectory(_root);
        string file = Path.Combine(_root, "a-file");
        await File.WriteAllTextAsync(file, "not a folder");

        var (code, _, stderr) = await Run("cyclic", "--programs", "spin", "--schemes", "tpl-default", "--size", "small", "--duration", "1s", "--out", file);

        Assert.Equal(CliApp.UsageError, code);
        Assert.Contains("--out", Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
        Assert.Equal("not a folder", await File.ReadAllTextAsync(file));
    }

    [Fact]
    public async Task BadInput_UnwritableOutputFolder_ExitCode2()
    {
        if (!OperatingSystem.IsLinux() || Environment.UserName == "root")
        {
            // root ignores permission bits; the file-as-folder case above covers the path.
            Directory.CreateDirectory(_root);
            string blocker = Path.Combine(_root, "blocker");
            await File.WriteAllTextAsync(blocker, "x");
            var (c, _, e) = await Run("cyclic", "--programs", "spin", "--schemes", "tpl-default", "--size", "small", "--out", Path.Combine(blocker, "sub"));
            Assert.Equal(CliApp.UsageError, c);
            Assert.Contains("--out", e, StringComparison.Ordinal);
            return;
        }

        string locked = Path.Combine(_root, "locked");
        Directory.CreateDirectory(locked);
        File.SetUnixFileMode(locked, UnixFileMode.UserRead | UnixFileMode.UserExecute);
        var (code, _, stderr) = await Run("cyclic", "--programs", "spin", "--schemes", "tpl-default", "--size", "small", "--out", locked);
        File.SetUnixFileMode(locked, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);

        Assert.Equal(CliApp.UsageError, code);
        Assert.Contains("--out", stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task FailingProgram_IsReportedOnStderr_ExitCode1_AndNoResultFileIsLeft()
    {
        string outDir = Path.Combine(_root, "failing");
        ProgramCatalog catalog = DivCon.Cli.Programs.SamplePrograms.Workload
            .With(new ProgramEntry("flaky", "Fails on its fourth run.", (size, seed) => new FlakyProgram(failOnRun: 4)));
        var root = new RootCommand { CyclicOptions.Cyclic(catalog, BuiltInSchemes.CreateRegistry()) };
        var output = new StringWriter();
        var error = new StringWriter();

        // --max-warmup 0: exactly 2 runs alone whatever their spread, so that the fourth run is a multiprogram one.
        int code = await root.Parse(["cyclic", "--programs", "spin,flaky", "--schemes", "tpl-default", "--size", "small", "--duration", "2s",
                "--sp-runs", "2", "--warmup", "0", "--max-warmup", "0", "--out", outDir])
            .InvokeAsync(new InvocationConfiguration { Output = output, Error = error })
            .WaitAsync(TimeSpan.FromMinutes(2));

        Assert.Equal(1, code);
        Assert.Contains("'flaky' failed", error.ToString(), StringComparison.Ordinal);
        Assert.Contains("checksum mismatch", error.ToString(), StringComparison.Ordinal);
        Assert.Contains("scheme 'tpl-default'", error.ToString(), StringComparison.Ordinal);
        Assert.Equal(string.Empty, output.ToString());
        Assert.Empty(Directory.Exists(outDir) ? Directory.GetFiles(outDir) : []);
    }

    /// <summary>Succeeds (after a short delay) until its n-th run, which throws.</summary>
    private sealed class FlakyProgram(int failOnRun) : IWorkloadProgram
    {
        private int _runs;

        public string Name => "flaky";

        public void Initialize()
        {
        }

        public async Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
        {
            int run = Interlocked.Increment(ref _runs);
            await Task.Factory.StartNew(() => Thread.Sleep(20), cancellationToken, TaskCreationOptions.None, scheduler).ConfigureAwait(false);
            if (run == failOnRun)
            {
                throw new InvalidOperationException("checksum mismatch");
            }
        }

        public void RunSequential() => Thread.Sleep(20);

        public void Verify()
        {
        }
    }
}
