using System.Text.Json;
using DivCon.Reporting.Plotting;
using DivCon.Tests.Experiments;

namespace DivCon.Tests.Cli;

public sealed class PhasesCommandTests : ExperimentCliHarness
{
    [Fact]
    public async Task Small_run_writes_per_level_counts_and_seconds_and_a_stacked_chart_of_them()
    {
        string outDir = Path.Combine(Root, "ok");
        var (code, stdout, stderr) = await Run("phases", "--programs", "mergesort,strassen", "--size", "small",
            "--runs", "2", "--warmup", "0", "--out", outDir);

        Assert.True(code == 0, stderr);
        Assert.Contains("execute", stdout);
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "phases.json")));
        JsonElement root = doc.RootElement;
        int cores = root.GetProperty("settings").GetProperty("processors").GetArrayLength();
        foreach (JsonElement program in root.GetProperty("programs").EnumerateArray())
        {
            string name = program.GetProperty("program").GetString()!;
            int branching = program.GetProperty("branchingFactor").GetInt32();
            JsonElement[] levels = program.GetProperty("levels").EnumerateArray().ToArray();
            Assert.Equal(Enumerable.Range(1, levels.Length), levels.Select(l => l.GetProperty("level").GetInt32()));

            // A balanced tree: level k+1 has branching × the splits of level k as its subproblems; merges mirror splits;
            // the executes at least cover the cores' target.
            double executes = levels.Sum(l => l.GetProperty("executeCount").GetDouble());
            double splits = levels.Sum(l => l.GetProperty("splitCount").GetDouble());
            Assert.Equal(1 + splits * branching, splits + executes);
            Assert.Equal(splits, levels.Sum(l => l.GetProperty("mergeCount").GetDouble()));
            Assert.True(executes >= cores, $"{name}: {executes} execute muscles for {cores} cores");
            Assert.True(levels.Sum(l => l.GetProperty("executeSeconds").GetDouble()) > 0);

            var chart = PlotAssert.Model<StackedBarChart>(outDir, $"phases-{name}");
            var log = PlotAssert.Model<LinePlot>(outDir, $"phases-{name}-log");
            Assert.Equal(AxisScale.Log10, log.YAxis.Scale);
            Assert.Equal(levels.Select(l => l.GetProperty("level").GetInt32().ToString(System.Globalization.CultureInfo.InvariantCulture)), chart.Categories);
            foreach (string phase in new[] { "split", "execute", "merge" })
            {
                Assert.Equal(levels.Select(l => l.GetProperty(phase + "Seconds").GetDouble()), chart.Segments.Single(s => s.Name == phase).Values);
                Assert.Equal(levels.Select(l => l.GetProperty(phase + "Seconds").GetDouble()), log.Series.Single(s => s.Name == phase).Y);
            }
        }

        Assert.True(File.Exists(Path.Combine(outDir, "phases.csv")));
    }

    [Fact]
    public async Task Bad_input_gives_one_line_per_problem_exit_2_and_writes_nothing()
    {
        string outDir = Path.Combine(Root, "bad");
        var r = await Run("phases", "--muscles-per-core", "0", "--size", "7", "--out", outDir);
        AssertRejected(r, outDir, "--muscles-per-core", "--size '7'");
    }
}
