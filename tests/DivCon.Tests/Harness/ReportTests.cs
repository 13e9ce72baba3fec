using System.Globalization;
using System.Text.Json;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Factored;
using DivCon.Harness.Reporting;
using DivCon.Harness.Schemes;

namespace DivCon.Tests.Harness;

public sealed class ReportTests
{
    private static CyclicResult Result(bool withRuns) => CyclicFixtures.OneInvocation(withRuns);

    private static JsonDocument Json(CyclicResult result) => JsonDocument.Parse(ResultJson.ToUtf8(result, HarnessJsonContext.Files.CyclicResult));

    [Fact]
    public void Json_HasTheDocumentedShape_TheRawTimes_AndNullsForMissingValues()
    {
        using JsonDocument doc = Json(Result(withRuns: false));
        JsonElement root = doc.RootElement;
        JsonElement scheme = root.GetProperty("schemes")[0];

        Assert.Equal(3, root.GetProperty("schemaVersion").GetInt32());
        Assert.Equal(JsonValueKind.Null, scheme.GetProperty("antt").ValueKind);
        JsonElement b = scheme.GetProperty("programs")[1];
        Assert.Equal("b", b.GetProperty("program").GetString());
        Assert.Equal(JsonValueKind.Null, b.GetProperty("cmp").ValueKind);
        Assert.Equal(JsonValueKind.Null, b.GetProperty("ntt").ValueKind);
        Assert.Equal(0, b.GetProperty("runs").GetInt32());
        Assert.Equal(1, b.GetProperty("discarded").GetInt32());
        Assert.Equal(JsonValueKind.Null, scheme.GetProperty("programs")[0].GetProperty("ntt").GetProperty("ci99").ValueKind); // one run only
        Assert.Equal("runs", scheme.GetProperty("programs")[0].GetProperty("ntt").GetProperty("basis").GetString());
        Assert.Equal("abc123", root.GetProperty("machine").GetProperty("gitCommit").GetString());
        Assert.Single(scheme.GetProperty("warnings").EnumerateArray());

        // Every raw time, warm-up apart, per invocation; and how it was analysed.
        JsonElement invocation = Assert.Single(root.GetProperty("invocations").EnumerateArray());
        Assert.Equal(1, invocation.GetProperty("invocation").GetInt32());
        Assert.Equal([1.0, 1.1, 1.05, 1.05], invocation.GetProperty("programs")[0].GetProperty("spSeconds").EnumerateArray().Select(v => v.GetDouble()));
        Assert.Equal([1.5], invocation.GetProperty("programs")[0].GetProperty("warmupSeconds").EnumerateArray().Select(v => v.GetDouble()));
        Assert.Equal([2.0], invocation.GetProperty("schemes")[0].GetProperty("programs")[0].GetProperty("seconds").EnumerateArray().Select(v => v.GetDouble()));
        Assert.Equal(["x"], invocation.GetProperty("schemeOrder").EnumerateArray().Select(v => v.GetString()));
        Assert.Equal(Bootstrap.DefaultResamples, root.GetProperty("analysis").GetProperty("bootstrapResamples").GetInt32());
        Assert.Equal(2, root.GetProperty("inference").GetArrayLength());
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

        // a: C^MP {2, 2.5, 2.25, 2.25} mean 2.25, C^SP mean 1.05 → NTT 2.143 with an interval over its runs; b: 5 / 2.1 = 2.381, one run.
        Assert.Contains("2.143 [", table, StringComparison.Ordinal);
        Assert.Contains("2.381    ", table, StringComparison.Ordinal);
        Assert.Contains("ANTT", table, StringComparison.Ordinal);
        Assert.Contains("1 invocation (independent processes)", table, StringComparison.Ordinal);
        Assert.Contains("Comparisons: none with 1 invocation.", table, StringComparison.Ordinal);
        Assert.Contains("over the runs of the one invocation", table, StringComparison.Ordinal);
        Assert.Contains("| x | a |", md, StringComparison.Ordinal);
        Assert.Contains("abc123", md, StringComparison.Ordinal);
        Assert.Contains("## Method", md, StringComparison.Ordinal);
        Assert.Contains("## Invocations", md, StringComparison.Ordinal);
        Assert.Contains("| 1 | 1001 |", md, StringComparison.Ordinal);
        Assert.DoesNotContain("Welch", table, StringComparison.Ordinal);
        Assert.DoesNotContain("Welch", md, StringComparison.Ordinal);
    }

    [Fact]
    public void PoolStatistics_InJsonAndMarkdown_AndAStarvedProgramIsNamedAsSuch()
    {
        // Program b held no core of the 2-worker pool for the whole 10 s phase and finished no run.
        SchedulerStats[] stats =
        [
            new("MultiProgramScheduler (scalability)", 7, 2, true, [0, 1], 0.5, 40, 3, 19.5, 19.0, PoolId: 4, PoolWorkers: 2, MovesIn: 3, MovesOut: 1, Repartitions: 2),
            new("MultiProgramScheduler (scalability)", 8, 0, true, [], 0.0, 0, 0, 0.001, 0.0, PoolId: 4, PoolWorkers: 2, MovesIn: 1, MovesOut: 1, Repartitions: 2),
        ];
        CyclicResult r = CyclicFixtures.OneInvocation(withRuns: false, _ => stats);

        using JsonDocument doc = Json(r);
        JsonElement b = doc.RootElement.GetProperty("schemes")[0].GetProperty("schedulers")[1];
        string md = CyclicTextReport.Markdown(r);

        Assert.Equal(0, b.GetProperty("workers").GetInt32());
        Assert.Equal(4, b.GetProperty("poolId").GetInt32());
        Assert.Equal(2, b.GetProperty("poolWorkers").GetInt32());
        Assert.Equal(1, b.GetProperty("movesIn").GetInt32());
        Assert.Equal(2, b.GetProperty("repartitions").GetInt32());
        Assert.Contains("gave it almost no core (0.001 core-seconds in a 10 s phase", Assert.Single(r.Schemes[0].Warnings), StringComparison.Ordinal);
        Assert.Contains("## Schedulers", md, StringComparison.Ordinal);
        Assert.Contains("| x | a | MultiProgramScheduler (scalability) | 7 | 2 of 2 | [0,1] | 0.500 | 19.000 | 19.500 | 40 | 3 | 3/1 | 2 |", md, StringComparison.Ordinal);
        Assert.Contains("| x | b | MultiProgramScheduler (scalability) | 8 | 0 of 2 | [] |", md, StringComparison.Ordinal);
    }

    [Fact]
    public void Comparisons_TheTableListsTheResolvedOnes_TheReportEvery_OneInvocationHasNone()
    {
        // x: a {2 + j}, b {4}; y: a {4 + j}, b {8 − j}; C^SP a 1, b 2. ANTT_x = 2 + j/2, ANTT_y = 4 + j/4: x / y ≈ 0.5 in
        // each invocation, give or take 2 %, so the paired test resolves it even after Holm over both metrics.
        CyclicInvocation Inv(int k, double j) => CyclicFixtures.Invocation(k, ["a", "b"], [[1.0], [2.0]],
            [("x", [new ProgramRuns([2 + j], 0), new ProgramRuns([4.0], 0)]), ("y", [new ProgramRuns([4 + j], 0), new ProgramRuns([8 - j], 0)])]);
        CyclicResult three = CyclicFixtures.Result(["a", "b"], ["x", "y"], [Inv(1, 0), Inv(2, 0.1), Inv(3, -0.1)]);
        CyclicResult one = CyclicFixtures.Result(["a", "b"], ["x", "y"], [Inv(1, 0)]);

        string table = CyclicTextReport.Table(three);
        string md = CyclicTextReport.Markdown(three);

        Assert.Contains("Holm-corrected over all 2", table, StringComparison.Ordinal);
        Assert.Contains("Resolved: 2 of 2:", table, StringComparison.Ordinal);
        Assert.Contains("ANTT x / y", table, StringComparison.Ordinal);
        Assert.Contains("resolved: x lower (better)", table, StringComparison.Ordinal);
        Assert.Contains("resolved: x higher (better)", table, StringComparison.Ordinal); // STP
        Assert.Contains("| ANTT | x | y | 0.500 |", md, StringComparison.Ordinal);
        Assert.Contains("## Blocked analysis and power", md, StringComparison.Ordinal);
        Assert.Contains("ANTT: schemes F(1,2) = ", table, StringComparison.Ordinal);
        Assert.Contains("Comparisons: none with 1 invocation.", CyclicTextReport.Table(one), StringComparison.Ordinal);
        Assert.DoesNotContain(one.Comparisons, c => c.HolmP is not null);
    }

    [Fact]
    public void Csv_OneRowPerNumber()
    {
        string[] lines = CyclicTextReport.Csv(Result(withRuns: true)).ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);

        Assert.Equal("scheme,program,metric,mean,ci99_lo,ci99_hi,rsd,n,basis", lines[0]);
        Assert.Equal(1 + (2 * 4) + 3, lines.Length);
        Assert.All(lines, l => Assert.Equal(8, l.Count(c => c == ',')));
        Assert.Contains(lines, l => l.StartsWith("x,a,ntt,2.142857142857143,", StringComparison.Ordinal) && l.EndsWith(",runs", StringComparison.Ordinal));
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
            Assert.Equal(result.Invocations[0].Programs[1].SpSeconds, back.Invocations[0].Programs[1].SpSeconds);
            Assert.Equal(result.Invocations[0].Schemes[0].Programs[0].Seconds, back.Invocations[0].Schemes[0].Programs[0].Seconds);
            Assert.Equal(ResultFile.CurrentSchemaVersion, back.SchemaVersion);
        }
        finally
        {
            Directory.Delete(dir, recursive: true);
        }
    }

    [Fact]
    public void Reanalyze_FromTheSavedRawTimes_GivesTheSameFileByteForByte()
    {
        // What `divcon analyze` does: read the file back and rebuild every derived number from its invocations.
        var random = new Random(4);
        CyclicInvocation Inv(int k) => CyclicFixtures.Invocation(k, ["a", "b"], [[1.0 + random.NextDouble(), 1.1], [2.0, 2.2 + random.NextDouble()]],
            [("x", [new ProgramRuns([2 + random.NextDouble(), 2.5], 0), new ProgramRuns([5.0 + random.NextDouble()], 1)]),
             ("y", [new ProgramRuns([3 + random.NextDouble()], 0), new ProgramRuns([4.0 + random.NextDouble(), 4.4], 0)])]);
        CyclicResult result = CyclicFixtures.Result(["a", "b"], ["x", "y"], [Inv(1), Inv(2), Inv(3), Inv(4)]);
        byte[] saved = ResultJson.ToUtf8(result, HarnessJsonContext.Files.CyclicResult);

        CyclicResult back = ResultKinds.Cyclic.Read(System.Text.Encoding.UTF8.GetString(saved));
        byte[] again = ResultJson.ToUtf8(CyclicResults.Reanalyze([back]), HarnessJsonContext.Files.CyclicResult);

        Assert.Equal(System.Text.Encoding.UTF8.GetString(saved), System.Text.Encoding.UTF8.GetString(again));
        // Another baseline changes the comparisons, not the raw times.
        CyclicResult vsY = CyclicResults.Reanalyze([back], back.Analysis with { Baseline = "y" });
        Assert.All(vsY.Comparisons, c => Assert.Equal("y", c.SchemeB));
        Assert.Equal(4, vsY.Invocations.Count);
    }

    [Fact]
    public void Read_ASavedVersion2FactoredFile_ReadsIt_WhileOtherVersionsAreRefused()
    {
        // The simulator's models are calibrated on this file (docs/simulation.md); version 3 changed cyclic results only.
        string saved = File.ReadAllText(Path.Combine(DivCon.Tests.Packaging.RepositoryLayout.Root, "docs/results/simulation/fit-factored/factored.json"));
        Assert.Contains("\"schemaVersion\": 2", saved, StringComparison.Ordinal);

        FactoredResult result = ResultKinds.Factored.Read(saved);

        Assert.Equal(5, result.Programs.Count);
        Assert.Contains("versions 2 to 3", Assert.Throws<ResultFileException>(() => ResultKinds.Factored.Read("{\"kind\":\"factored\",\"schemaVersion\":1}")).Message, StringComparison.Ordinal);
        Assert.Contains("schema version 4", Assert.Throws<ResultFileException>(() => ResultKinds.Factored.Read("{\"kind\":\"factored\",\"schemaVersion\":4}")).Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("{\"kind\":\"cyclic\",\"schemaVersion\":1}", "schema version 1")]
    [InlineData("{\"kind\":\"cyclic\",\"schemaVersion\":2}", "schema version 2")]
    [InlineData("{\"kind\":\"phases\",\"schemaVersion\":3}", "kind 'phases'")]
    [InlineData("{\"schemaVersion\":3}", "no \"kind\"")]
    [InlineData("[1, 2]", "not an object")]
    [InlineData("{not json", "not valid JSON")]
    public void Read_AnOldOrForeignFile_IsOneLineOfError(string json, string expected)
    {
        var e = Assert.Throws<ResultFileException>(() => ResultKinds.Cyclic.Read(json));

        Assert.Contains(expected, e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', e.Message);
    }
}
