using System.Text.Json;
using DivCon.Reporting.Plotting;
using DivCon.Tests.Experiments;

namespace DivCon.Tests.Cli;

public sealed class GranularityCommandTests : ExperimentCliHarness
{
    [Fact]
    public async Task Small_run_halves_the_granularity_and_plots_the_times_in_the_json()
    {
        string outDir = Path.Combine(Root, "ok");
        var (code, stdout, stderr) = await Run("granularity", "--programs", "sumofsquares,strassen", "--size", "small",
            "--runs", "2", "--warmup", "0", "--max-depth", "4", "--out", outDir);

        Assert.True(code == 0, stderr);
        Assert.Contains("granularity", stdout);
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "granularity.json")));
        JsonElement root = doc.RootElement;
        Assert.Equal(4, root.GetProperty("maxDepth").GetInt32());
        var log = PlotAssert.Model<LinePlot>(outDir, "granularity");
        var linear = PlotAssert.Model<LinePlot>(outDir, "granularity-linear");
        Assert.Equal(AxisScale.Log10, log.YAxis.Scale);
        Assert.Equal(AxisScale.Linear, linear.YAxis.Scale);
        foreach (JsonElement program in root.GetProperty("programs").EnumerateArray())
        {
            long size = program.GetProperty("problemSize").GetInt64();
            JsonElement[] points = program.GetProperty("points").EnumerateArray().ToArray();
            Assert.Equal(size, points[0].GetProperty("granularity").GetInt64()); // the elision first
            long previous = long.MaxValue;
            foreach (JsonElement pt in points)
            {
                long divisor = pt.GetProperty("divisor").GetInt64();
                long g = pt.GetProperty("granularity").GetInt64();
                Assert.Equal(Math.Max(1, (size + divisor - 1) / divisor), g);
                Assert.True(g < previous, "each point is finer than the one before");
                previous = g;
            }

            string name = program.GetProperty("program").GetString()!;
            foreach (LinePlot plot in new[] { log, linear })
            {
                LineSeries s = plot.Series.Single(x => x.Name == name);
                Assert.Equal(points.Select(p => (double)p.GetProperty("divisor").GetInt64()), s.X);
                for (int i = 0; i < points.Length; i++)
                {
                    var (mean, minus, plus) = PlotAssert.MeanCi(points[i].GetProperty("time").GetProperty("summary"));
                    PlotAssert.Same(mean, s.Y[i], $"{name} time {i}");
                    PlotAssert.Same(minus, s.ErrorMinus![i], $"{name} error below {i}");
                    PlotAssert.Same(plus, s.ErrorPlus![i], $"{name} error above {i}");
                }
            }
        }
    }

    [Fact]
    public async Task Bad_input_gives_one_line_per_problem_exit_2_and_writes_nothing()
    {
        string outDir = Path.Combine(Root, "bad");
        var r = await Run("granularity", "--programs", "", "--max-depth", "31", "--runs", "-3", "--out", outDir);
        AssertRejected(r, outDir, "--programs needs", "--max-depth", "--runs");
    }
}
