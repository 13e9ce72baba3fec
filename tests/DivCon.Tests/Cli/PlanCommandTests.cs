using System.Text.Json;
using DivCon.Cli;

namespace DivCon.Tests.Cli;

public sealed class PlanCommandTests
{
    private static readonly string[] s_figure = ["plan", "--cores", "32", "--speedups", "15.18,10.43,9.71", "--tasks", "18,1,12"];

    private static async Task<(int Code, string Output, string Error)> Run(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        int code = await CliApp.RunAsync(args, output, error);
        return (code, output.ToString(), error.ToString());
    }

    [Fact]
    public async Task Figure520_TextTableShowsEveryRow()
    {
        var (code, output, error) = await Run(s_figure);

        Assert.Equal(0, code);
        Assert.Equal(string.Empty, error);
        string[] lines = output.Split(Environment.NewLine);
        Assert.Contains(lines, l => l.StartsWith("Proportional share", StringComparison.Ordinal) && l.EndsWith("13.75          9.45          8.80", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("Base allocation", StringComparison.Ordinal) && l.EndsWith("14             9             9", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("Capped allocation", StringComparison.Ordinal) && l.EndsWith("14             1             9", StringComparison.Ordinal));
        Assert.Contains("Remaining: 8           14 (1.018)*    1 (0.106)     9 (1.023)", output, StringComparison.Ordinal);
        Assert.Contains("Remaining: 2           18 (1.309)     1 (0.106)    11 (1.250)*", output, StringComparison.Ordinal);
        Assert.Contains("Remaining: 1           18 (1.309)     1 (0.106)*   12 (1.364)", output, StringComparison.Ordinal);
        Assert.Contains("Remaining: 0           18 (1.309)     2 (0.212)    12 (1.364)", output, StringComparison.Ordinal);
        Assert.Contains(lines, l => l.StartsWith("Final allocation", StringComparison.Ordinal) && l.EndsWith("18             2            12", StringComparison.Ordinal));
        Assert.Equal(9, lines.Count(l => l.StartsWith("Remaining:", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task Figure520_Json()
    {
        var (code, output, _) = await Run([.. s_figure, "--json"]);

        Assert.Equal(0, code);
        using var doc = JsonDocument.Parse(output);
        JsonElement root = doc.RootElement;
        Assert.Equal([13.75, 9.45, 8.80], root.GetProperty("shares").EnumerateArray().Select(e => Math.Round(e.GetDouble(), 2)));
        Assert.Equal([14, 9, 9], root.GetProperty("base").EnumerateArray().Select(e => e.GetInt32()));
        Assert.Equal([14, 1, 9], root.GetProperty("capped").EnumerateArray().Select(e => e.GetInt32()));
        Assert.Equal([18, 2, 12], root.GetProperty("final").EnumerateArray().Select(e => e.GetInt32()));
        var steps = root.GetProperty("steps").EnumerateArray().ToArray();
        Assert.Equal([1, 3, 1, 3, 1, 1, 3, 2], steps.Select(s => s.GetProperty("program").GetInt32()));
        Assert.Equal([8, 7, 6, 5, 4, 3, 2, 1], steps.Select(s => s.GetProperty("remaining").GetInt32()));
        Assert.Equal("unbounded", steps[^1].GetProperty("kind").GetString());
        Assert.Equal([1.018, 0.106, 1.023], steps[0].GetProperty("scores").EnumerateArray().Select(e => Math.Round(e.GetDouble(), 3)));
        Assert.Equal([1.309, 0.106, 1.250], steps[6].GetProperty("scores").EnumerateArray().Select(e => Math.Round(e.GetDouble(), 3)));
    }

    [Fact]
    public async Task ScalabilityPolicy_Section532Example()
    {
        var (code, output, _) = await Run("plan", "--cores", "64", "--speedups", "23,13,12", "--policy", "scalability", "--json");

        Assert.Equal(0, code);
        using var doc = JsonDocument.Parse(output);
        Assert.Equal([31, 17, 16], doc.RootElement.GetProperty("final").EnumerateArray().Select(e => e.GetInt32()));
        Assert.Equal(JsonValueKind.Null, doc.RootElement.GetProperty("capped").ValueKind);
    }

    [Fact]
    public async Task HillClimbing_WithTables_ShowsTheMoveAndAntt()
    {
        var (code, output, _) = await Run(
            "plan", "--cores", "8", "--speedups", "2,8", "--policy", "hill-climbing", "--tables", "1:1,2:1.9,4:3.5,6:2.5,8:2;1:1,2:2,4:4,8:8", "--json");

        Assert.Equal(0, code);
        using var doc = JsonDocument.Parse(output);
        Assert.Equal([2, 6], doc.RootElement.GetProperty("base").EnumerateArray().Select(e => e.GetInt32()));
        Assert.Equal([3, 5], doc.RootElement.GetProperty("final").EnumerateArray().Select(e => e.GetInt32()));
        JsonElement move = doc.RootElement.GetProperty("steps")[0];
        Assert.Equal(2, move.GetProperty("from").GetInt32());
        Assert.Equal(1, move.GetProperty("to").GetInt32());
        Assert.True(doc.RootElement.GetProperty("finalAntt").GetDouble() < doc.RootElement.GetProperty("startAntt").GetDouble());
    }

    public static TheoryData<string[], string[]> BadInputs => new()
    {
        { ["plan", "--cores", "0", "--speedups", "1,2", "--tasks", "1,1"], ["--cores must be a positive number"] },
        { ["plan", "--cores", "4", "--speedups", "1,0", "--tasks", "1,1"], ["--speedups value 2 must be a positive finite speedup; got 0."] },
        { ["plan", "--cores", "4", "--speedups", "1,NaN", "--tasks", "1,1"], ["--speedups value 2 must be a positive finite speedup; got NaN."] },
        { ["plan", "--cores", "4", "--speedups", "1,x", "--tasks", "1,1"], ["--speedups value 2 ('x') is not a number."] },
        { ["plan", "--cores", "4", "--speedups", "1,2,3", "--tasks", "1,1"], ["--tasks has 2 values but --speedups has 3"] },
        { ["plan", "--cores", "4", "--speedups", "1,2", "--tasks", "1,-1"], ["--tasks value 2 must not be negative"] },
        { ["plan", "--cores", "4", "--speedups", "1,2"], ["--tasks is required by the task-availability policy"] },
        { ["plan", "--cores", "4", "--speedups", "1,2", "--policy", "hill-climbing", "--tables", "1:1"], ["--tables has 1 tables but --speedups has 2"] },
        // Several problems at once: one line each.
        {
            ["plan", "--cores", "-1", "--speedups", "-3,2", "--tasks", "-1,1"],
            ["--cores must be a positive number", "--speedups value 1 must be a positive finite speedup", "--tasks value 1 must not be negative"]
        },
    };

    [Theory]
    [MemberData(nameof(BadInputs))]
    public async Task BadInput_OneLinePerProblem_ExitCode2(string[] args, string[] expected)
    {
        var (code, output, error) = await Run(args);

        Assert.Equal(CliApp.UsageError, code);
        Assert.Equal(string.Empty, output);
        string[] lines = error.Split(Environment.NewLine, StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(expected.Length, lines.Length);
        for (int i = 0; i < expected.Length; i++)
        {
            Assert.Contains(expected[i], lines[i], StringComparison.Ordinal);
        }

        Assert.DoesNotContain("   at ", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task IdleLending_ShowsTheTickDecisionAndTheLendingRule()
    {
        var (code, output, _) = await Run([.. s_figure, "--policy", "idle-lending"]);

        Assert.Equal(0, code);
        Assert.Contains("Remaining: 0           18 (1.309)     2 (0.212)    12 (1.364)", output, StringComparison.Ordinal);
        Assert.Contains("is lent to the program with the lowest score", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task UnknownPolicy_IsAParseError()
    {
        var (code, _, error) = await Run("plan", "--cores", "4", "--speedups", "1", "--policy", "fastest");

        Assert.Equal(CliApp.UsageError, code);
        Assert.Contains("fastest", error, StringComparison.Ordinal);
    }
}
