using System.Text.Json;
using DivCon.Harness.Plots;
using DivCon.Reporting.Plotting;

namespace DivCon.Tests.Experiments;

/// <summary>
/// Issue 7 must-show 3 at the model level: every plotted bar, error bar and point equals a number of the result file,
/// for hand-written files of each kind (the CLI tests check the same on files the commands wrote).
/// </summary>
public sealed class ResultPlotsTests
{
    // Two schemes, two programs; scheme b has no interval on anything (one repetition) and no NTT for program y.
    private const string Cyclic = """
    { "kind": "cyclic", "configuration": { "programs": ["x", "y"] },
      "schemes": [
        { "scheme": "a", "antt": { "mean": 1.5, "ci99": [1.25, 2.0], "n": 3 }, "mntt": { "mean": 2.0, "ci99": null, "n": 1 },
          "stp": { "mean": 1.4, "ci99": [1.0, 1.9], "n": 3 },
          "programs": [ { "program": "x", "ntt": { "mean": 1.2, "ci99": [1.0, 1.5] }, "np": { "mean": 0.8333, "ci99": [0.7, 0.95] } },
                        { "program": "y", "ntt": { "mean": 1.8, "ci99": [1.5, 2.25] }, "np": { "mean": 0.5556, "ci99": [0.45, 0.6] } } ] },
        { "scheme": "b", "antt": { "mean": 2.5, "ci99": null, "n": 1 }, "mntt": { "mean": 3.0, "ci99": null, "n": 1 },
          "stp": { "mean": 0.9, "ci99": null, "n": 1 },
          "programs": [ { "program": "x", "ntt": { "mean": 2.0, "ci99": null }, "np": { "mean": 0.5, "ci99": null } },
                        { "program": "y", "ntt": null, "np": null } ] } ] }
    """;

    [Fact]
    public void Cyclic_bars_and_error_bars_are_the_files_means_and_intervals()
    {
        IReadOnlyList<NamedFigure> figures = ResultPlots.FromJson(Cyclic);
        Assert.Equal(["ntt", "np", "antt", "stp"], figures.Select(f => f.Name));

        var ntt = Assert.IsType<BarChart>(figures[0].Figure);
        Assert.Equal(["x", "y"], ntt.Groups);
        Assert.Equal(["a", "b"], ntt.Series.Select(s => s.Name));
        Assert.Equal([1.2, 1.8], ntt.Series[0].Values);
        Assert.Equal(0.2, ntt.Series[0].ErrorMinus![0], 12);
        Assert.Equal(0.3, ntt.Series[0].ErrorPlus![0], 12);
        Assert.Equal(0.3, ntt.Series[0].ErrorMinus![1], 12);
        Assert.Equal(0.45, ntt.Series[0].ErrorPlus![1], 12);
        Assert.Equal(2.0, ntt.Series[1].Values[0]);
        Assert.True(double.IsNaN(ntt.Series[1].ErrorMinus![0]), "no interval → no error bar");
        Assert.True(double.IsNaN(ntt.Series[1].Values[1]), "no NTT → no bar");
        Assert.Contains(ntt.ReferenceLines, l => l.Slope == 0 && l.Intercept == 1);

        var antt = Assert.IsType<BarChart>(figures[2].Figure);
        Assert.Single(antt.Groups);
        Assert.Equal([1.5], antt.Series[0].Values);
        Assert.Equal(0.25, antt.Series[0].ErrorMinus![0], 12);
        Assert.Equal(0.5, antt.Series[0].ErrorPlus![0], 12);
        Assert.Equal([2.5], antt.Series[1].Values);

        var stp = Assert.IsType<BarChart>(figures[3].Figure);
        Assert.Equal([1.4], stp.Series[0].Values);
        Assert.Equal([0.9], stp.Series[1].Values);
    }

    [Fact]
    public void Symmetric_adds_mntt_per_scheme()
    {
        string symmetric = Cyclic.Replace("\"kind\": \"cyclic\"", "\"kind\": \"symmetric\"");
        IReadOnlyList<NamedFigure> figures = ResultPlots.FromJson(symmetric);
        var mntt = Assert.IsType<BarChart>(Assert.Single(figures, f => f.Name == "mntt").Figure);
        Assert.Equal([2.0], mntt.Series[0].Values);
        Assert.Equal([3.0], mntt.Series[1].Values);
    }

    [Fact]
    public void Scalability_points_are_the_files_speedups_and_both_selections_share_a_figure()
    {
        const string json = """
        { "kind": "scalability", "programs": [
          { "program": "p", "curves": [
            { "selection": "contiguous", "points": [ { "p": 1, "speedup": 0.9 }, { "p": 2, "speedup": 1.7 } ] },
            { "selection": "dispersed", "points": [ { "p": 1, "speedup": 0.95 }, { "p": 2, "speedup": 1.8 } ] } ] } ] }
        """;
        IReadOnlyList<NamedFigure> figures = ResultPlots.FromJson(json);
        Assert.Equal(["speedup-contiguous", "speedup-dispersed", "speedup-contiguous-vs-dispersed"], figures.Select(f => f.Name));
        var contiguous = Assert.IsType<LinePlot>(figures[0].Figure);
        Assert.Equal([1.0, 2.0], Assert.Single(contiguous.Series).X);
        Assert.Equal([0.9, 1.7], contiguous.Series[0].Y);
        var both = Assert.IsType<LinePlot>(figures[2].Figure);
        Assert.Equal([0.95, 1.8], Assert.Single(both.Series, s => s.Name == "p dispersed").Y);
        Assert.Equal(LinePattern.Dashed, both.Series.Single(s => s.Name == "p dispersed").Pattern);
    }

    [Fact]
    public void Granularity_phases_and_factored_series_are_the_files_numbers()
    {
        const string granularity = """
        { "kind": "granularity", "configuration": { "cores": 2 }, "programs": [ { "program": "g", "points": [
          { "divisor": 1, "time": { "mean": 4.0, "ci99": [3.0, 5.5] } }, { "divisor": 2, "time": { "mean": 2.5, "ci99": null } } ] } ] }
        """;
        var time = Assert.IsType<LinePlot>(ResultPlots.FromJson(granularity)[0].Figure);
        Assert.Equal(AxisScale.Log2, time.XAxis.Scale);
        Assert.Equal(AxisScale.Log10, time.YAxis.Scale);
        Assert.Equal([1.0, 2.0], time.Series[0].X);
        Assert.Equal([4.0, 2.5], time.Series[0].Y);
        Assert.Equal(1.0, time.Series[0].ErrorMinus![0], 12);
        Assert.Equal(1.5, time.Series[0].ErrorPlus![0], 12);

        const string phases = """
        { "kind": "phases", "programs": [ { "program": "m", "levels": [
          { "level": 1, "split": { "count": 1, "seconds": 0.5 }, "execute": { "count": 0, "seconds": 0 }, "merge": { "count": 1, "seconds": 0.25 } },
          { "level": 2, "split": { "count": 0, "seconds": 0 }, "execute": { "count": 2, "seconds": 3.0 }, "merge": { "count": 0, "seconds": 0 } } ] } ] }
        """;
        IReadOnlyList<NamedFigure> phaseFigures = ResultPlots.FromJson(phases);
        Assert.Equal(["phases-m", "phases-m-log"], phaseFigures.Select(f => f.Name));
        var logView = Assert.IsType<LinePlot>(phaseFigures[1].Figure);
        Assert.Equal(AxisScale.Log10, logView.YAxis.Scale);
        Assert.Equal([0.5, 0.0], logView.Series.Single(s => s.Name == "split").Y);
        Assert.Equal([0.0, 3.0], logView.Series.Single(s => s.Name == "execute").Y);
        NamedFigure phase = phaseFigures[0];
        Assert.Equal("phases-m", phase.Name);
        var stacked = Assert.IsType<StackedBarChart>(phase.Figure);
        Assert.Equal(["1", "2"], stacked.Categories);
        Assert.Equal(["split", "execute", "merge"], stacked.Segments.Select(s => s.Name));
        Assert.Equal([0.5, 0.0], stacked.Segments[0].Values);
        Assert.Equal([0.0, 3.0], stacked.Segments[1].Values);
        Assert.Equal([0.25, 0.0], stacked.Segments[2].Values);

        // factored.json as specified in issue 7 (the factored command is another helper's).
        const string factored = """
        { "kind": "factored", "programs": [ { "program": "f", "ts": 1, "t1": 1.1, "telision": 1.05, "points": [
          { "p": 1, "tp": 1.1, "ip": 0, "wp": 1.1, "fp": 0, "speedups": { "linear": 1, "maximal": 0.909, "idleSpecific": 0.909, "inflationSpecific": 0.909, "actual": 0.909, "elision": 0.952 } },
          { "p": 2, "tp": 0.6, "ip": 0.05, "wp": 1.15, "fp": 0.05, "speedups": { "linear": 2, "maximal": 1.818, "idleSpecific": 1.739, "inflationSpecific": 1.739, "actual": 1.667, "elision": null } } ] } ] }
        """;
        var f = Assert.IsType<LinePlot>(Assert.Single(ResultPlots.FromJson(factored)).Figure);
        Assert.Equal(FactoredPlots.Curves.Select(c => FactoredPlots.SeriesNames[c]), f.Series.Select(s => s.Name));
        Assert.Equal([0.909, 1.818], f.Series.Single(s => s.Name == "maximal").Y);
        Assert.Equal([0.909, 1.739], f.Series.Single(s => s.Name == "idle-time specific").Y);
        Assert.True(double.IsNaN(f.Series.Single(s => s.Name == "elision").Y[1]), "null → gap");
    }

    [Theory]
    [InlineData("{}", "no \"kind\"")]
    [InlineData("{ \"kind\": \"weather\" }", "known kinds")]
    public void Unknown_files_are_rejected_with_the_kinds_that_can_be_drawn(string json, string message)
    {
        var e = Assert.Throws<ArgumentException>(() => ResultPlots.FromJson(json));
        Assert.Contains(message, e.Message);
        Assert.ThrowsAny<JsonException>(() => ResultPlots.FromJson("{ not json"));
    }

    [Fact]
    public void Rendered_files_are_a_png_and_the_figure_model_per_figure()
    {
        var files = ResultPlots.Render(ResultPlots.FromJson(Cyclic));
        Assert.Equal(8, files.Count);
        foreach (var (name, content) in files.Where(f => f.Name.EndsWith(".png", StringComparison.Ordinal)))
        {
            Assert.True(content.Length > 5_000, name);
            Assert.Equal(Figure.DefaultWidth, SkiaSharp.SKBitmap.Decode(content).Width);
        }

        var model = Assert.IsType<BarChart>(Figure.FromJson(System.Text.Encoding.UTF8.GetString(files.Single(f => f.Name == "ntt.plot.json").Content)));
        Assert.Equal([1.2, 1.8], model.Series[0].Values);
    }
}
