using System.Globalization;
using System.Text.Json;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Reporting;
using DivCon.Harness.Schemes;

namespace DivCon.Tests.Harness;

public sealed class ReportTests
{
    private static CyclicResult Result(bool withRuns)
    {
        var phase = new PhaseResult(["a", "b"], 10, withRuns
            ? [new RunRecord(0, 0, 2, true), new RunRecord(0, 2, 4.5, true), new RunRecord(1, 0, 5, true), new RunRecord(1, 5, 10, false)]
            : [new RunRecord(0, 0, 2, true), new RunRecord(1, 0, 10, false)]);
        var rep = new RepetitionRuns([[1.0, 1.1], [2.0, 2.2]], new Dictionary<string, IReadOnlyList<ProgramRuns>> { ["x"] = phase.ProgramRuns() });
        var (schemes, comparisons) = CyclicAnalysis.Analyze(["a", "b"], [("x", "scheme x")], [rep]);
        var config = new CyclicPlanRecord("cyclic", ["a", "b"], ["x"], "sp", "small", 10, 2, 0, 1, [0, 1], 3, true);
        return Result(config, [new ProgramBaseline("a", [1.0, 1.1], null, null), new ProgramBaseline("b", [2.0, 2.2], null, null)], schemes, comparisons,
            new MachineInfo(2, [0, 1], "TestOS", ".NET test", "X64", "abc123", false), new DateTimeOffset(2026, 11, 22, 0, 0, 0, TimeSpan.Zero));
    }

    private static CyclicResult Result(CyclicPlanRecord config, IReadOnlyList<ProgramBaseline> baselines, IReadOnlyList<SchemeResult> schemes,
        IReadOnlyList<SchemeComparison> comparisons, MachineInfo? machine = null, DateTimeOffset? started = null) =>
        new(config, baselines, schemes, comparisons)
        {
            StartedUtc = started ?? DateTimeOffset.UnixEpoch,
            ElapsedSeconds = 12.5,
            Machine = machine ?? new MachineInfo(2, [0, 1], "TestOS", ".NET test", "X64", null, null),
        };

    private static JsonDocument Json(CyclicResult result) => JsonDocument.Parse(ResultJson.ToUtf8(result, HarnessJsonContext.Files.CyclicResult));

    [Fact]
    public void Json_HasTheDocumentedShape_AndNullsForMissingValues()
    {
        using JsonDocument doc = Json(Result(withRuns: false));
        JsonElement scheme = doc.RootElement.GetProperty("schemes")[0];

        Assert.Equal(JsonValueKind.Null, scheme.GetProperty("antt").ValueKind);
        JsonElement b = scheme.GetProperty("programs")[1];
        Assert.Equal("b", b.GetProperty("program").GetString());
        Assert.Equal(JsonValueKind.Null, b.GetProperty("cmp").ValueKind);
        Assert.Equal(JsonValueKind.Null, b.GetProperty("ntt").ValueKind);
        Assert.Equal(0, b.GetProperty("runs").GetInt32());
        Assert.Equal(1, b.GetProperty("discarded").GetInt32());
        Assert.Equal(JsonValueKind.Null, scheme.GetProperty("programs")[0].GetProperty("ntt").GetProperty("ci99").ValueKind); // one run only
        Assert.Equal("abc123", doc.RootElement.GetProperty("machine").GetProperty("gitCommit").GetString());
        Assert.Single(scheme.GetProperty("warnings").EnumerateArray());
    }

    [Fact]
    public void Json_NumbersAreInvariantWhateverTheCurrentCulture()
    {
        CultureInfo previous = CultureInfo.CurrentCulture;
        try
        {
            CultureInfo.CurrentCulture = CultureInfo.InvariantCulture; // InvariantGlobalization: the only culture there is
            using JsonDocument doc = Json(Result(withRuns: true));
            double ntt = doc.RootElement.GetProperty("schemes")[0].GetProperty("programs")[0].GetProperty("ntt").GetProperty("mean").GetDouble();
            Assert.Equal(2.25 / 1.05, ntt, 12);
        }
        finally
        {
            CultureInfo.CurrentCulture = previous;
        }
    }

    [Fact]
    public void Table_And_Markdown_ShowEveryProgramAndMetric()
    {
        CyclicResult r = Result(withRuns: true);

        string table = CyclicTextReport.Table(r);
        string md = CyclicTextReport.Markdown(r);

        // a: C^MP {2, 2.5} mean 2.25, C^SP mean 1.05 → NTT 2.143; b: 5 / 2.1 = 2.381.
        Assert.Contains("2.143 ± ", table, StringComparison.Ordinal);
        Assert.Contains("2.381 ± n/a", table, StringComparison.Ordinal);
        Assert.Contains("ANTT", table, StringComparison.Ordinal);
        Assert.Contains("| x | a |", md, StringComparison.Ordinal);
        Assert.Contains("abc123", md, StringComparison.Ordinal);
        Assert.Contains("## Method", md, StringComparison.Ordinal);
    }

    [Fact]
    public void PoolStatistics_InJsonAndMarkdown_AndAStarvedProgramIsNamedAsSuch()
    {
        // Program b held no core of the 2-worker pool for the whole 10 s phase and finished no run.
        var phase = new PhaseResult(["a", "b"], 10, [new RunRecord(0, 0, 2, true), new RunRecord(1, 0, 10, false)]);
        var rep = new RepetitionRuns([[1.0, 1.1], [2.0, 2.2]], new Dictionary<string, IReadOnlyList<ProgramRuns>> { ["x"] = phase.ProgramRuns() });
        SchedulerStats[] stats =
        [
            new("MultiProgramScheduler (scalability)", 7, 2, true, [0, 1], 0.5, 40, 3, 19.5, 19.0, PoolId: 4, PoolWorkers: 2, MovesIn: 3, MovesOut: 1, Repartitions: 2),
            new("MultiProgramScheduler (scalability)", 8, 0, true, [], 0.0, 0, 0, 0.001, 0.0, PoolId: 4, PoolWorkers: 2, MovesIn: 1, MovesOut: 1, Repartitions: 2),
        ];
        var (schemes, comparisons) = CyclicAnalysis.Analyze(["a", "b"], [("x", "scheme x")], [rep],
            (scheme, i) => CyclicExperiment.NoRunWarning(stats, i == 0 ? "a" : "b", i, 10));
        CyclicResult basic = Result(withRuns: true);
        CyclicResult r = basic with { Schemes = schemes.Select(s => s with { Schedulers = stats }).ToArray(), Comparisons = comparisons };

        using JsonDocument doc = Json(r);
        JsonElement b = doc.RootElement.GetProperty("schemes")[0].GetProperty("schedulers")[1];
        string md = CyclicTextReport.Markdown(r);

        Assert.Equal(0, b.GetProperty("workers").GetInt32());
        Assert.Equal(4, b.GetProperty("poolId").GetInt32());
        Assert.Equal(2, b.GetProperty("poolWorkers").GetInt32());
        Assert.Equal(1, b.GetProperty("movesIn").GetInt32());
        Assert.Equal(2, b.GetProperty("repartitions").GetInt32());
        Assert.Contains("gave it almost no core (0.001 core-seconds in a 10 s phase", Assert.Single(schemes[0].Warnings), StringComparison.Ordinal);
        Assert.Contains("## Schedulers", md, StringComparison.Ordinal);
        Assert.Contains("| x | a | MultiProgramScheduler (scalability) | 7 | 2 of 2 | [0,1] | 0.500 | 19.000 | 19.500 | 40 | 3 | 3/1 | 2 |", md, StringComparison.Ordinal);
        Assert.Contains("| x | b | MultiProgramScheduler (scalability) | 8 | 0 of 2 | [] |", md, StringComparison.Ordinal);
    }

    [Fact]
    public void Table_PrintsOneSignificanceLinePerPairAndMetric_OrOneLineWithoutRepetitions()
    {
        PhaseResult Phase(double a, double b) => new(["a", "b"], 10, [new RunRecord(0, 0, a, true), new RunRecord(1, 0, b, true)]);
        RepetitionRuns Rep(double j) => new([[1.0], [2.0]], new Dictionary<string, IReadOnlyList<ProgramRuns>> { ["x"] = Phase(2 + j, 4).ProgramRuns(), ["y"] = Phase(4 + j, 8 - j).ProgramRuns() });
        var config = new CyclicPlanRecord("cyclic", ["a", "b"], ["x", "y"], "sp", "small", 10, 1, 0, 3, [0, 1], 3, true);
        var (schemes, comparisons) = CyclicAnalysis.Analyze(["a", "b"], [("x", "x"), ("y", "y")], [Rep(0), Rep(0.1), Rep(-0.1)]);
        var oneRep = CyclicAnalysis.Analyze(["a", "b"], [("x", "x"), ("y", "y")], [Rep(0)]);

        string table = CyclicTextReport.Table(Result(config, [], schemes, comparisons));
        string single = CyclicTextReport.Table(Result(config with { Repeat = 1 }, [], oneRep.Schemes, oneRep.Comparisons));

        Assert.Contains("ANTT x vs y: significant at 99 % (difference -2.000,", table, StringComparison.Ordinal);
        Assert.Contains("STP x vs y: ", table, StringComparison.Ordinal);
        Assert.Contains("Significance: not enough repetitions for Welch's t-test between any two schemes (1 repetition); run with --repeat 2 or more.", single, StringComparison.Ordinal);
        Assert.DoesNotContain("x vs y", single, StringComparison.Ordinal);
        string singleMarkdown = CyclicTextReport.Markdown(Result(config with { Repeat = 1 }, [], oneRep.Schemes, oneRep.Comparisons));
        Assert.Contains("ANTT x vs y: not enough repetitions", singleMarkdown, StringComparison.Ordinal);
        Assert.Contains("STP x vs y: not enough repetitions", singleMarkdown, StringComparison.Ordinal);
    }

    [Fact]
    public void Csv_OneRowPerNumber()
    {
        string[] lines = CyclicTextReport.Csv(Result(withRuns: true)).ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);

        Assert.Equal("scheme,program,metric,mean,ci99_lo,ci99_hi,sd,rsd,n", lines[0]);
        Assert.Equal(1 + (2 * 4) + 3, lines.Length);
        Assert.All(lines, l => Assert.Equal(8, l.Count(c => c == ',')));
        Assert.Contains(lines, l => l.StartsWith("x,a,ntt,2.142857142857143,", StringComparison.Ordinal));
    }

    [Fact]
    public void ResultFiles_WritesJsonCsvReportAndFigures_AndNoTemporaries_AndTheJsonReadsBack()
    {
        string dir = Path.Combine(Path.GetTempPath(), "divcon-report-tests", Guid.NewGuid().ToString("N"));
        try
        {
            Assert.Null(ResultFolder.CheckWritable(dir));
            CyclicResult result = Result(withRuns: true);
            IReadOnlyList<string> files = ResultFolder.Write(dir, ResultKinds.Cyclic.Files(result, png: false));

            Assert.Equal(["cyclic.json", "cyclic.csv", "report.md"], files.Select(Path.GetFileName));
            Assert.All(files, f => Assert.True(new FileInfo(f).Length > 0));
            Assert.Equal(3, Directory.GetFiles(dir).Length);
            CyclicResult back = ResultKinds.Cyclic.Read(File.ReadAllText(files[0]));
            Assert.Equal(result.Schemes[0].Programs[0].Ntt, back.Schemes[0].Programs[0].Ntt);
            Assert.Equal(result.Machine.GitCommit, back.Machine.GitCommit);
            Assert.Equal(result.Baselines[1].SpSeconds, back.Baselines[1].SpSeconds);
            Assert.Equal(ResultFile.CurrentSchemaVersion, back.SchemaVersion);
        }
        finally
        {
            Directory.Delete(dir, recursive: true);
        }
    }

    [Theory]
    [InlineData("{\"kind\":\"cyclic\",\"schemaVersion\":1}", "schema version 1")]
    [InlineData("{\"kind\":\"phases\",\"schemaVersion\":2}", "kind 'phases'")]
    [InlineData("{\"schemaVersion\":2}", "no \"kind\"")]
    [InlineData("[1, 2]", "not an object")]
    [InlineData("{not json", "not valid JSON")]
    public void Read_AnOldOrForeignFile_IsOneLineOfError(string json, string expected)
    {
        var e = Assert.Throws<ResultFileException>(() => ResultKinds.Cyclic.Read(json));

        Assert.Contains(expected, e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', e.Message);
    }
}
