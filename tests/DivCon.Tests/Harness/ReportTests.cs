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
        var rep = new RepetitionData([[1.0, 1.1], [2.0, 2.2]], new Dictionary<string, PhaseResult> { ["x"] = phase });
        var (schemes, comparisons) = CyclicAnalysis.Analyze(["a", "b"], [("x", "scheme x")], [rep]);
        var config = new CyclicPlanRecord("cyclic", ["a", "b"], ["x"], "sp", "small", 10, 2, 0, 1, [0, 1], 3, true);
        var machine = new MachineInfo(2, [0, 1], "TestOS", ".NET test", "X64", "abc123", false);
        return new CyclicResult(machine, config, new DateTimeOffset(2026, 11, 22, 0, 0, 0, TimeSpan.Zero), 12.5,
            [new ProgramBaseline("a", [1.0, 1.1], null, null), new ProgramBaseline("b", [2.0, 2.2], null, null)], schemes, comparisons);
    }

    [Fact]
    public void Json_HasTheDocumentedShape_AndNullsForMissingValues()
    {
        using var stream = new MemoryStream();
        CyclicJsonWriter.Write(Result(withRuns: false), stream);
        using JsonDocument doc = JsonDocument.Parse(stream.ToArray());
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
            using var stream = new MemoryStream();
            CyclicJsonWriter.Write(Result(withRuns: true), stream);
            using JsonDocument doc = JsonDocument.Parse(stream.ToArray());
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
        var rep = new RepetitionData([[1.0, 1.1], [2.0, 2.2]], new Dictionary<string, PhaseResult> { ["x"] = phase });
        SchedulerStats[] stats =
        [
            new("MultiProgramScheduler (scalability)", 7, 2, true, [0, 1], 0.5, 40, 3, 19.5, 19.0, PoolId: 4, PoolWorkers: 2, MovesIn: 3, MovesOut: 1, Repartitions: 2),
            new("MultiProgramScheduler (scalability)", 8, 0, true, [], 0.0, 0, 0, 0.001, 0.0, PoolId: 4, PoolWorkers: 2, MovesIn: 1, MovesOut: 1, Repartitions: 2),
        ];
        var (schemes, comparisons) = CyclicAnalysis.Analyze(["a", "b"], [("x", "scheme x")], [rep],
            new Dictionary<string, IReadOnlyList<SchedulerStats>> { ["x"] = stats });
        CyclicResult basic = Result(withRuns: true);
        var r = new CyclicResult(basic.Machine, basic.Configuration, basic.StartedUtc, basic.ElapsedSeconds, basic.Baselines, schemes, comparisons);

        using var stream = new MemoryStream();
        CyclicJsonWriter.Write(r, stream);
        using JsonDocument doc = JsonDocument.Parse(stream.ToArray());
        JsonElement b = doc.RootElement.GetProperty("schemes")[0].GetProperty("schedulers")[1];
        string md = CyclicTextReport.Markdown(r);

        Assert.Equal("b", b.GetProperty("program").GetString());
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
        RepetitionData Rep(double j) => new([[1.0], [2.0]], new Dictionary<string, PhaseResult> { ["x"] = Phase(2 + j, 4), ["y"] = Phase(4 + j, 8 - j) });
        var config = new CyclicPlanRecord("cyclic", ["a", "b"], ["x", "y"], "sp", "small", 10, 1, 0, 3, [0, 1], 3, true);
        var machine = new MachineInfo(2, [0, 1], "TestOS", ".NET test", "X64", null, null);
        var (schemes, comparisons) = CyclicAnalysis.Analyze(["a", "b"], [("x", "x"), ("y", "y")], [Rep(0), Rep(0.1), Rep(-0.1)]);
        var oneRep = CyclicAnalysis.Analyze(["a", "b"], [("x", "x"), ("y", "y")], [Rep(0)]);

        string table = CyclicTextReport.Table(new CyclicResult(machine, config, DateTimeOffset.UnixEpoch, 1, [], schemes, comparisons));
        string single = CyclicTextReport.Table(new CyclicResult(machine, config with { Repeat = 1 }, DateTimeOffset.UnixEpoch, 1, [], oneRep.Schemes, oneRep.Comparisons));

        Assert.Contains("ANTT x vs y: significant at 99 % (difference -2.000,", table, StringComparison.Ordinal);
        Assert.Contains("STP x vs y: ", table, StringComparison.Ordinal);
        Assert.Contains("Significance: not enough repetitions for Welch's t-test between any two schemes (1 repetition); run with --repeat 2 or more.", single, StringComparison.Ordinal);
        Assert.DoesNotContain("x vs y", single, StringComparison.Ordinal);
        string singleMarkdown = CyclicTextReport.Markdown(new CyclicResult(machine, config with { Repeat = 1 }, DateTimeOffset.UnixEpoch, 1, [], oneRep.Schemes, oneRep.Comparisons));
        Assert.Contains("ANTT x vs y: not enough repetitions", singleMarkdown, StringComparison.Ordinal);
        Assert.Contains("STP x vs y: not enough repetitions", singleMarkdown, StringComparison.Ordinal);
    }

    [Fact]
    public void Csv_OneRowPerNumber()
    {
        var w = new StringWriter();
        CyclicCsvWriter.Write(Result(withRuns: true), w);
        string[] lines = w.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);

        Assert.Equal(CyclicCsvWriter.Header, lines[0]);
        Assert.Equal(1 + (2 * 4) + 3, lines.Length);
        Assert.All(lines, l => Assert.Equal(8, l.Count(c => c == ',')));
        Assert.Contains(lines, l => l.StartsWith("x,a,ntt,2.142857142857143,", StringComparison.Ordinal));
    }

    [Fact]
    public void ResultFiles_WritesAllThree_AndNoTemporaries()
    {
        string dir = Path.Combine(Path.GetTempPath(), "divcon-report-tests", Guid.NewGuid().ToString("N"));
        try
        {
            Assert.Null(ResultFiles.CheckWritable(dir));
            IReadOnlyList<string> files = ResultFiles.Write(Result(withRuns: true), dir, "cyclic");

            Assert.Equal(["cyclic.json", "cyclic.csv", "report.md"], files.Select(Path.GetFileName));
            Assert.All(files, f => Assert.True(new FileInfo(f).Length > 0));
            Assert.Equal(3, Directory.GetFiles(dir).Length);
        }
        finally
        {
            Directory.Delete(dir, recursive: true);
        }
    }
}
