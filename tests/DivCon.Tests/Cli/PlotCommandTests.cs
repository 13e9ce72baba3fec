using System.Text.Json;
using DivCon.Reporting.Plotting;
using DivCon.Tests.Experiments;

namespace DivCon.Tests.Cli;

public sealed class PlotCommandTests : ExperimentCliHarness
{
    [Fact]
    public async Task Cyclic_writes_ntt_np_antt_stp_whose_bars_are_the_json_and_plot_redraws_them_identically()
    {
        string outDir = Path.Combine(Root, "cyclic");
        var (code, _, stderr) = await Run("cyclic", "--programs", "quicksort,mergesort", "--schemes", "tpl-default",
            "--duration", "2s", "--sp-runs", "2", "--warmup", "0", "--max-warmup", "2", "--size", "small", "--out", outDir);
        Assert.True(code == 0, stderr);

        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "cyclic.json")));
        JsonElement scheme = doc.RootElement.GetProperty("schemes")[0];
        foreach (string metric in new[] { "ntt", "np" })
        {
            var chart = PlotAssert.Model<BarChart>(outDir, metric);
            Assert.Equal(["quicksort", "mergesort"], chart.Groups);
            BarSeries s = Assert.Single(chart.Series);
            Assert.Equal("tpl-default", s.Name);
            JsonElement[] programs = scheme.GetProperty("programs").EnumerateArray().ToArray();
            for (int i = 0; i < programs.Length; i++)
            {
                var (mean, minus, plus) = PlotAssert.MeanCi(programs[i].GetProperty(metric));
                PlotAssert.Same(mean, s.Values[i], $"{metric} {i}");
                PlotAssert.Same(minus, s.ErrorMinus![i], $"{metric} {i} below");
                PlotAssert.Same(plus, s.ErrorPlus![i], $"{metric} {i} above");
            }
        }

        foreach (string metric in new[] { "antt", "stp" })
        {
            var chart = PlotAssert.Model<BarChart>(outDir, metric);
            PlotAssert.Same(scheme.GetProperty(metric).GetProperty("mean").GetDouble(), Assert.Single(chart.Series).Values[0], metric);
        }

        // Redraw from the saved file into another folder: the same figure models.
        string redraw = Path.Combine(Root, "redraw");
        var (plotCode, plotOut, plotErr) = await Run("plot", "--from", Path.Combine(outDir, "cyclic.json"), "--out", redraw);
        Assert.True(plotCode == 0, plotErr);
        Assert.Contains("ntt.png", plotOut);
        foreach (string stem in new[] { "ntt", "np", "antt", "stp" })
        {
            PlotAssert.ValidPng(Path.Combine(redraw, $"{stem}.png"));
            Assert.Equal(await File.ReadAllTextAsync(Path.Combine(outDir, $"{stem}.plot.json")), await File.ReadAllTextAsync(Path.Combine(redraw, $"{stem}.plot.json")));
        }
    }

    [Fact]
    public async Task Plot_redraws_the_factored_commands_figure_identically_and_its_points_are_the_json_speedups()
    {
        string outDir = Path.Combine(Root, "factored");
        var (code, _, stderr) = await Run("factored", "--programs", "mergesort", "--size", "small", "--runs", "1", "--warmup", "0", "--out", outDir);
        Assert.True(code == 0, stderr);

        string redraw = Path.Combine(Root, "factored-redraw");
        (code, _, stderr) = await Run("plot", "--from", Path.Combine(outDir, "factored.json"), "--out", redraw);
        Assert.True(code == 0, stderr);
        Assert.Equal(await File.ReadAllTextAsync(Path.Combine(outDir, "factored-mergesort.plot.json")),
            await File.ReadAllTextAsync(Path.Combine(redraw, "factored-mergesort.plot.json")));

        var plot = PlotAssert.Model<LinePlot>(redraw, "factored-mergesort");
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "factored.json")));
        JsonElement[] points = doc.RootElement.GetProperty("programs")[0].GetProperty("points").EnumerateArray().ToArray();
        foreach (string curve in DivCon.Metrics.Factored.FactoredSpeedups.Names)
        {
            string series = DivCon.Harness.Plots.FactoredPlots.SeriesName(curve);
            double[] expected = points.Select(p => PlotAssert.Number(p.GetProperty("speedups"), curve)).ToArray();
            LineSeries s = plot.Series.Single(x => x.Name == series);
            for (int i = 0; i < expected.Length; i++)
            {
                PlotAssert.Same(expected[i], s.Y[i], $"{curve} {i}");
            }
        }
    }

    [Fact]
    public async Task Symmetric_writes_mntt_and_cyclic_plots_none_writes_no_figures()
    {
        string sym = Path.Combine(Root, "sym");
        var (code, _, stderr) = await Run("symmetric", "--program", "quicksort", "--instances", "2", "--schemes", "tpl-default",
            "--duration", "2s", "--sp-runs", "2", "--warmup", "0", "--max-warmup", "2", "--size", "small", "--out", sym);
        Assert.True(code == 0, stderr);
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(sym, "symmetric.json")));
        var mntt = PlotAssert.Model<BarChart>(sym, "mntt");
        PlotAssert.Same(doc.RootElement.GetProperty("schemes")[0].GetProperty("mntt").GetProperty("mean").GetDouble(), mntt.Series[0].Values[0], "mntt");

        string none = Path.Combine(Root, "none");
        (code, _, stderr) = await Run("cyclic", "--programs", "mergesort", "--schemes", "tpl-default", "--duration", "1s", "--sp-runs", "2",
            "--warmup", "0", "--size", "small", "--plots", "none", "--out", none);
        Assert.True(code == 0, stderr);
        Assert.Empty(Directory.GetFiles(none, "*.png"));
    }

    [Fact]
    public async Task Plots_option_of_cyclic_rejects_other_values_with_the_rest()
    {
        string outDir = Path.Combine(Root, "bad-cyclic");
        var r = await Run("cyclic", "--plots", "pdf", "--sp-runs", "0", "--out", outDir);
        AssertRejected(r, outDir, "--plots 'pdf'", "--sp-runs");
    }

    [Fact]
    public async Task Plot_rejects_missing_unreadable_and_unknown_files_with_exit_2()
    {
        Directory.CreateDirectory(Root);
        string notJson = Path.Combine(Root, "broken.json");
        await File.WriteAllTextAsync(notJson, "{ kind");
        string unknown = Path.Combine(Root, "unknown.json");
        await File.WriteAllTextAsync(unknown, """{ "kind": "weather" }""");
        string empty = Path.Combine(Root, "empty.json");
        var emptyPhases = new DivCon.Harness.Experiments.PhasesResult(
            new DivCon.Harness.Experiments.ExperimentSettings(["quicksort"], DivCon.Harness.Programs.WorkloadSize.Small, 1, 0, [0], 1, TimeSpan.FromMinutes(1)), 4, [])
        {
            StartedUtc = DateTimeOffset.UnixEpoch,
            ElapsedSeconds = 0,
            Machine = MachineInfo.Capture(),
        };
        await File.WriteAllBytesAsync(empty, ResultJson.ToUtf8(emptyPhases, DivCon.Harness.Reporting.HarnessJsonContext.Files.PhasesResult));
        string old = Path.Combine(Root, "old.json");
        await File.WriteAllTextAsync(old, """{ "kind": "cyclic", "schemaVersion": 1, "schemes": [] }""");

        foreach (var (args, fragment) in new[]
        {
            (new[] { "plot" }, "--from needs"),
            (new[] { "plot", "--from", Path.Combine(Root, "missing.json") }, "does not exist"),
            (new[] { "plot", "--from", Root }, "is a folder; name a result file in it"),
            (new[] { "plot", "--from", notJson }, "not valid JSON"),
            (new[] { "plot", "--from", unknown }, "expected one of: cyclic, symmetric, factored, scalability, granularity, phases"),
            (new[] { "plot", "--from", old }, "schema version 1"),
            (new[] { "plot", "--from", empty }, "no data"),
        })
        {
            string before = string.Join(",", Directory.GetFiles(Root).Order());
            var r = await Run(args);
            Assert.Equal(DivCon.Cli.CliApp.UsageError, r.Code);
            Assert.Contains(fragment, r.Err);
            Assert.Single(r.Err.Split('\n', StringSplitOptions.RemoveEmptyEntries));
            Assert.Equal(before, string.Join(",", Directory.GetFiles(Root).Order()));
        }
    }

    [Fact]
    public async Task Plot_redraws_a_figure_model_and_rejects_a_broken_one_with_exit_2()
    {
        Directory.CreateDirectory(Root);
        var model = new StackedStepPlot("Cores held", [0, 0.5, 1], "Time (s)", "Cores");
        model.AddLayer("a (0)", [1, 1]);
        model.AddLayer("b (1)", [0, 1]);
        model.AddHorizontalLine(2, "2 workers");
        string path = Path.Combine(Root, "allocation-x.plot.json");
        await File.WriteAllTextAsync(path, model.ToJson());

        string redraw = Path.Combine(Root, "model-redraw");
        var (code, output, err) = await Run("plot", "--from", path, "--out", redraw);

        Assert.True(code == 0, err);
        Assert.Contains("allocation-x.png", output);
        PlotAssert.ValidPng(Path.Combine(redraw, "allocation-x.png"));
        Assert.Equal(model.ToJson(), await File.ReadAllTextAsync(Path.Combine(redraw, "allocation-x.plot.json")));

        string broken = Path.Combine(Root, "broken.plot.json");
        await File.WriteAllTextAsync(broken, """{ "kind": "pie", "title": "" }""");
        var r = await Run("plot", "--from", broken, "--out", redraw);
        Assert.Equal(DivCon.Cli.CliApp.UsageError, r.Code);
        Assert.Contains("Not a figure", r.Err);
        Assert.Single(r.Err.Split('\n', StringSplitOptions.RemoveEmptyEntries));
    }
}
