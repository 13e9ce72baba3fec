using System.Text.Json;
using DivCon.Reporting.Plotting;
using DivCon.Tests.Experiments;

namespace DivCon.Tests.Cli;

public sealed class ScalabilityCommandTests : ExperimentCliHarness
{
    [Fact]
    public async Task Small_run_writes_json_csv_and_pngs_whose_points_are_the_speedups_in_the_json()
    {
        string outDir = Path.Combine(Root, "ok");
        var (code, stdout, stderr) = await Run("scalability", "--programs", "sumofsquares,mergesort", "--size", "small",
            "--runs", "2", "--warmup", "0", "--out", outDir);

        Assert.True(code == 0, stderr);
        Assert.Contains("speedup", stdout);
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "scalability.json")));
        JsonElement root = doc.RootElement;
        Assert.Equal("scalability", root.GetProperty("kind").GetString());
        int n = root.GetProperty("settings").GetProperty("processors").GetArrayLength();
        Assert.True(root.GetProperty("machine").GetProperty("affinity").GetArrayLength() >= n);
        JsonElement[] programs = root.GetProperty("programs").EnumerateArray().ToArray();
        Assert.Equal(["sumofsquares", "mergesort"], programs.Select(p => p.GetProperty("program").GetString()));

        var contiguous = PlotAssert.Model<LinePlot>(outDir, "speedup-contiguous");
        var dispersed = PlotAssert.Model<LinePlot>(outDir, "speedup-dispersed");
        var both = PlotAssert.Model<LinePlot>(outDir, "speedup-contiguous-vs-dispersed");
        foreach (JsonElement program in programs)
        {
            string name = program.GetProperty("program").GetString()!;
            double ts = program.GetProperty("ts").GetProperty("summary").GetProperty("mean").GetDouble();
            Assert.Equal(2, program.GetProperty("ts").GetProperty("seconds").GetArrayLength());
            foreach (JsonElement curve in program.GetProperty("curves").EnumerateArray())
            {
                string selection = curve.GetProperty("selection").GetString()!;
                JsonElement[] points = curve.GetProperty("points").EnumerateArray().ToArray();
                Assert.Equal(Enumerable.Range(1, n), points.Select(p => p.GetProperty("p").GetInt32()));
                foreach (JsonElement pt in points)
                {
                    // Ratio of means, and exactly P processors.
                    Assert.Equal(ts / pt.GetProperty("tp").GetProperty("summary").GetProperty("mean").GetDouble(), pt.GetProperty("speedup").GetDouble(), 12);
                    Assert.Equal(pt.GetProperty("p").GetInt32(), pt.GetProperty("processors").GetArrayLength());
                }

                double[] speedups = points.Select(p => p.GetProperty("speedup").GetDouble()).ToArray();
                LinePlot single = selection == "contiguous" ? contiguous : dispersed;
                Assert.Equal(speedups, single.Series.Single(s => s.Name == name).Y);
                Assert.Equal(speedups, both.Series.Single(s => s.Name == $"{name} {selection}").Y);
                Assert.Equal(points.Select(p => (double)p.GetProperty("p").GetInt32()), single.Series.Single(s => s.Name == name).X);
            }
        }

        string[] csv = await File.ReadAllLinesAsync(Path.Combine(outDir, "scalability.csv"));
        Assert.Equal(1 + 2 * 2 * n, csv.Length);
    }

    [Fact]
    public async Task Plots_none_writes_only_the_results()
    {
        string outDir = Path.Combine(Root, "none");
        var (code, _, stderr) = await Run("scalability", "--programs", "montecarlopi", "--size", "small", "--runs", "1", "--warmup", "0",
            "--cores", "1", "--selection", "dispersed", "--plots", "none", "--out", outDir);
        Assert.True(code == 0, stderr);
        Assert.Equal(["scalability.csv", "scalability.json"], Directory.GetFiles(outDir).Select(Path.GetFileName).Order());
    }

    [Fact]
    public async Task Bad_input_gives_one_line_per_problem_exit_2_and_writes_nothing()
    {
        string outDir = Path.Combine(Root, "bad");
        var r = await Run("scalability", "--programs", "quicksort,bogus,quicksort", "--size", "huge", "--runs", "0", "--warmup", "-1",
            "--cores", "999", "--selection", "scattered", "--plots", "svg", "--out", outDir);
        AssertRejected(r, outDir, "'bogus'", "listed more than once", "--size", "--runs", "--warmup", "--cores", "--selection 'scattered'", "--plots 'svg'");
    }
}
