using DivCon.Reporting.Plotting;
using DivCon.Reporting.Plotting.Rendering;
using ScottPlot;
using SkiaSharp;
using BarSeries = DivCon.Reporting.Plotting.BarSeries;
using LinePattern = DivCon.Reporting.Plotting.LinePattern;
using MarkerShape = DivCon.Reporting.Plotting.MarkerShape;

namespace DivCon.Tests.Reporting;

/// <summary>What ScottPlot draws for each figure: pixels at the coordinates the model's values map to (through the
/// rendered plot's own coordinate transform), axis ranges and ticks, and the legend's place.</summary>
public sealed class RenderingTests
{
    /// <summary>A rendered figure: the ScottPlot plot (its last render maps coordinates to pixels) and the decoded PNG.</summary>
    private sealed class Rendered : IDisposable
    {
        public Rendered(DivCon.Reporting.Plotting.Figure figure)
        {
            Plot = figure.ToScottPlot();
            Png = Plot.GetImageBytes(DivCon.Reporting.Plotting.Figure.DefaultWidth, DivCon.Reporting.Plotting.Figure.DefaultHeight, ImageFormat.Png);
            Image = SKBitmap.Decode(Png);
        }

        public Plot Plot { get; }

        public byte[] Png { get; }

        public SKBitmap Image { get; }

        public PixelRect Data => Plot.LastRender.DataRect;

        /// <summary>The pixel colour at plot coordinates (x, y) (log units on a log axis).</summary>
        public SKColor At(double x, double y)
        {
            Pixel p = Plot.GetPixel(new Coordinates(x, y));
            return Image.GetPixel((int)Math.Floor(p.X), (int)Math.Floor(p.Y));
        }

        /// <summary>Whether a pixel within 1 px of plot coordinates (x, y) has colour <paramref name="color"/> (a thin
        /// anti-aliased line covers its centre pixel only partly).</summary>
        public bool Near(double x, double y, PlotColor color, int tolerance)
        {
            Pixel p = Plot.GetPixel(new Coordinates(x, y));
            for (int dy = -1; dy <= 1; dy++)
            {
                for (int dx = -1; dx <= 1; dx++)
                {
                    if (Same(Image.GetPixel((int)Math.Floor(p.X) + dx, (int)Math.Floor(p.Y) + dy), color, tolerance))
                    {
                        return true;
                    }
                }
            }

            return false;
        }

        public string[] MajorTicks(IAxis axis) => [.. axis.TickGenerator.Ticks.Where(t => t.IsMajor).Select(t => t.Label)];

        public void Dispose()
        {
            Image.Dispose();
            Plot.Dispose();
        }
    }

    private static bool Same(SKColor c, PlotColor p, int tolerance = 0) =>
        Math.Abs(c.Red - p.R) <= tolerance && Math.Abs(c.Green - p.G) <= tolerance && Math.Abs(c.Blue - p.B) <= tolerance;

    private static bool Light(SKColor c) => c.Red > 200 && c.Green > 200 && c.Blue > 200;

    [Fact]
    public void RenderPng_HasTheDefaultSize_OnWhite()
    {
        var plot = new LinePlot("Speedup", "cores", "speedup");
        plot.AddSeries("a", [1, 2, 4], [1, 1.8, 3.1]);

        byte[] png = plot.RenderPng();
        using SKBitmap image = SKBitmap.Decode(png);

        Assert.True(png.Length > 2000, $"PNG of {png.Length} bytes looks empty");
        Assert.Equal((800, 600), (image.Width, image.Height));
        Assert.Equal(SKColors.White, image.GetPixel(0, 0));
    }

    [Fact]
    public void Rendering_IsDeterministic()
    {
        var chart = new BarChart("NTT", ["a", "b"], "program", "NTT");
        chart.AddSeries("s", [1.2, 2.5], [0.1, 0.2], [0.3, 0.1]);
        chart.AddHorizontalLine(1, "NTT = 1");
        byte[] first = chart.RenderPng();
        byte[] second = chart.RenderPng();
        Assert.Equal(first, second);
    }

    [Fact]
    public void LinePlot_SeriesColoursSitWhereTheDataMaps()
    {
        var plot = new LinePlot("", "x", "y") { ShowLegend = false };
        LineSeries low = plot.AddSeries("low", [0, 5, 10], [0, 1, 2]);
        LineSeries high = plot.AddSeries("high", [0, 5, 10], [10, 9, 8], MarkerShape.Square);

        using var r = new Rendered(plot);

        foreach (LineSeries s in new[] { low, high })
        {
            for (int i = 0; i < s.X.Count; i++)
            {
                Assert.True(Same(r.At(s.X[i], s.Y[i]), s.Color, 10), $"{s.Name} point {i}: {r.At(s.X[i], s.Y[i])}");
            }

            // Half way between two points the line itself is there.
            Assert.True(r.Near(2.5, (s.Y[0] + s.Y[1]) / 2, s.Color, 40), $"{s.Name}: no line");
        }

        Assert.True(Light(r.At(2.5, 5.3)));
        // The data range padded a little: every point inside the frame.
        AxisLimits limits = r.Plot.Axes.GetLimits();
        Assert.True(limits.Left < 0 && limits.Right > 10 && limits.Bottom < 0 && limits.Top > 10);
    }

    [Fact]
    public void LogAxes_AreDrawnInLogUnits_WithPowerLabelsAndNoLog2MinorTicks()
    {
        var plot = new LinePlot { ShowLegend = false };
        plot.XAxis.Scale = AxisScale.Log2;
        plot.YAxis.Scale = AxisScale.Log10;
        LineSeries s = plot.AddSeries("s", [1, 2, 4, 8, 16], [0.01, 0.1, 1, 10, 100]);

        using var r = new Rendered(plot);

        Assert.Equal(["1", "2", "4", "8", "16"], r.MajorTicks(r.Plot.Axes.Bottom));
        Assert.DoesNotContain(r.Plot.Axes.Bottom.TickGenerator.Ticks, t => !t.IsMajor);
        Assert.Equal(["0.01", "0.1", "1", "10", "100"], r.MajorTicks(r.Plot.Axes.Left));
        // Minor ticks of a log10 axis at 2…9 times each power.
        Assert.Contains(r.Plot.Axes.Left.TickGenerator.Ticks, t => !t.IsMajor && Math.Abs(t.Position - Math.Log10(2)) < 1e-9);
        for (int i = 0; i < s.X.Count; i++)
        {
            Assert.True(Same(r.At(Math.Log2(s.X[i]), Math.Log10(s.Y[i])), s.Color, 10), $"point {i}");
        }
    }

    [Fact]
    public void ShortLogRanges_GetEvenlySpacedValues()
    {
        var plot = new LinePlot();
        plot.XAxis.Scale = AxisScale.Log2;
        plot.AddSeries("s", [1, 2], [1, 2]);

        using var r = new Rendered(plot);

        Assert.Equal(["1", "1.2", "1.4", "1.6", "1.8", "2"], r.MajorTicks(r.Plot.Axes.Bottom));
        Assert.Equal(Math.Log2(1.4), r.Plot.Axes.Bottom.TickGenerator.Ticks.Single(t => t.Label == "1.4").Position, 9);
    }

    [Fact]
    public void ALog10RangeUnderTwoDecades_IsLabelledAtOneTwoAndFiveTimesPowersOfTen()
    {
        var plot = new LinePlot();
        plot.XAxis.Scale = AxisScale.Log10;
        plot.AddSeries("s", [0.9, 24], [0, 1]); // under two decades: before, ticks at 5, 10, …, 25 only

        using var r = new Rendered(plot);

        Assert.Equal(["1", "2", "5", "10", "20"], r.MajorTicks(r.Plot.Axes.Bottom));
        Assert.Equal(Math.Log10(2), r.Plot.Axes.Bottom.TickGenerator.Ticks.Single(t => t.Label == "2").Position, 9);
    }

    [Fact]
    public void LinePlot_SkipsPointsALogAxisCannotShow_AndBreaksTheLineThere()
    {
        var plot = new LinePlot { ShowLegend = false };
        plot.YAxis.Scale = AxisScale.Log10;
        LineSeries s = plot.AddSeries("s", [1, 2, 3], [1, -1, 100], MarkerShape.Circle);

        using var r = new Rendered(plot);

        Assert.True(Same(r.At(1, 0), s.Color, 10));
        Assert.True(Same(r.At(3, 2), s.Color, 10));
        // Bridging point 0 to point 2 would pass through (2, 10); the rule is a gap.
        Assert.True(Light(r.At(2, 1)));
    }

    [Fact]
    public void FixedLimits_ClipTheData()
    {
        var plot = new LinePlot { ShowLegend = false };
        plot.XAxis.SetLimits(0, 5);
        plot.YAxis.SetLimits(0, 10);
        LineSeries s = plot.AddSeries("s", [0, 10], [0, 10], MarkerShape.None);

        using var r = new Rendered(plot);

        Assert.Equal((0.0, 5.0, 0.0, 10.0), (r.Plot.Axes.GetLimits().Left, r.Plot.Axes.GetLimits().Right, r.Plot.Axes.GetLimits().Bottom, r.Plot.Axes.GetLimits().Top));
        Assert.True(r.Near(4, 4, s.Color, 40));
        int y = (int)r.Plot.GetPixel(new Coordinates(5, 7)).Y;
        for (int x = (int)r.Data.Right + 3; x < r.Image.Width; x++)
        {
            Assert.True(Light(r.Image.GetPixel(x, y)), $"pixel ({x}, {y}) drawn outside the plot area");
        }
    }

    [Fact]
    public void ReferenceLine_IdentityIsDrawnThroughItsValuesOnLogAxes()
    {
        var plot = new LinePlot { ShowLegend = false };
        plot.XAxis.Scale = AxisScale.Log2;
        plot.YAxis.Scale = AxisScale.Log2;
        plot.AddSeries("s", [1, 16], [1, 4], MarkerShape.None, LinePattern.None);
        ReferenceLine identity = plot.AddReferenceLine(new ReferenceLine("linear", 1, 0, new PlotColor(0, 0, 0), LinePattern.Solid));

        using var r = new Rendered(plot);

        foreach (double v in new[] { 1.5, 2.0, 3.0 })
        {
            Assert.True(r.Near(Math.Log2(v), Math.Log2(v), identity.Color, 60), $"identity line missing at {v}");
        }
    }

    [Fact]
    public void ErrorBars_SpanValueMinusToValuePlus_AndNaNDrawsNone()
    {
        var plot = new LinePlot { ShowLegend = false };
        plot.YAxis.SetLimits(0, 10);
        LineSeries s = plot.AddSeries("s", [1, 2], [4, 6], MarkerShape.None, LinePattern.None, errorMinus: [1, 0.5], errorPlus: [3, double.NaN]);

        using var r = new Rendered(plot);

        int x = (int)Math.Round(r.Plot.GetPixel(new Coordinates(1, 0)).X);
        int[] inked = [.. Enumerable.Range((int)r.Data.Top + 2, (int)r.Data.Height - 4).Where(y => Same(r.Image.GetPixel(x, y), s.Color, 60))];
        Assert.InRange(inked.Min(), r.Plot.GetPixel(new Coordinates(1, 7)).Y - 2, r.Plot.GetPixel(new Coordinates(1, 7)).Y + 2);
        Assert.InRange(inked.Max(), r.Plot.GetPixel(new Coordinates(1, 3)).Y - 2, r.Plot.GetPixel(new Coordinates(1, 3)).Y + 2);
        Assert.True(Light(r.At(2, 6.5)));
        Assert.True(Light(r.At(2, 5.7)));

        var chart = new BarChart("", ["g"]) { ShowLegend = false };
        chart.YAxis.SetLimits(0, 5);
        BarSeries bars = chart.AddSeries("s", [2], [0.5], [1.5]);
        using var b = new Rendered(chart);
        Assert.True(Same(b.At(-0.2, 1), bars.Color));
        Assert.True(Light(b.At(-0.2, 2.2)));
        Assert.False(Light(b.At(0, 3.3)), "no whisker above the bar");
        Assert.True(Light(b.At(0, 3.7)), "the whisker reaches 3.5, not further");
    }

    [Fact]
    public void BarChart_GroupsHoldOneBarPerSeriesInOrder_AndNaNDrawsNoBar()
    {
        var chart = new BarChart("", ["p1", "p2", "p3"]) { ShowLegend = false };
        var a = chart.AddSeries("a", [1, 2, 3]);
        var b = chart.AddSeries("b", [3, 2, double.NaN]);

        using var r = new Rendered(chart);

        Assert.Equal(["p1", "p2", "p3"], r.MajorTicks(r.Plot.Axes.Bottom));
        for (int g = 0; g < 3; g++)
        {
            foreach (var (series, index) in new[] { (a, 0), (b, 1) })
            {
                var (left, right) = chart.BarSpan(g, index);
                double x = (left + right) / 2;
                Assert.True(left > g - 0.5 && right < g + 0.5);
                if (double.IsNaN(series.Values[g]))
                {
                    Assert.True(Light(r.At(x, 0.5)), "a NaN value must draw no bar");
                }
                else
                {
                    Assert.True(Same(r.At(x, series.Values[g] - 0.1), series.Color));
                    Assert.True(Light(r.At(x, series.Values[g] + 0.1)));
                }
            }
        }
    }

    [Fact]
    public void BarChart_SingleGroupLabelsBarsWithSeriesNames_AndLongNamesAlternateRows()
    {
        var chart = new BarChart("ANTT", ["ANTT"]);
        chart.AddSeries("tpl", [3]);
        chart.AddSeries("equi", [2]);
        using var r = new Rendered(chart);
        Assert.Equal(["tpl", "equi"], r.MajorTicks(r.Plot.Axes.Bottom));
        Assert.DoesNotContain(r.Plot.GetPlottables().SelectMany(p => p.LegendItems), i => i.LabelText.Length > 0);

        string[] schemes = ["oversubscribed-free", "oversubscribed-pinned", "shared", "static-partitioned", "dynamic-partitioned", "hill-climbing"];
        var wide = new BarChart("ANTT", ["ANTT"]);
        foreach (string scheme in schemes)
        {
            wide.AddSeries(scheme, [2]);
        }

        using var w = new Rendered(wide);
        string[] labels = w.MajorTicks(w.Plot.Axes.Bottom);
        Assert.Equal(schemes, labels.Select(l => l.TrimStart('\n')));
        Assert.All(labels.Where((_, i) => i % 2 == 1), l => Assert.StartsWith("\n", l, StringComparison.Ordinal));
    }

    [Fact]
    public void StackedStepPlot_StacksLayersPerInterval()
    {
        var plot = new StackedStepPlot("", [0, 1, 3], "time", "cores") { ShowLegend = false };
        StepLayer a = plot.AddLayer("a", [2, 1]);
        StepLayer b = plot.AddLayer("b", [1, double.NaN]);

        using var r = new Rendered(plot);

        Assert.True(Same(r.At(0.5, 1), a.Color));
        Assert.True(Same(r.At(0.5, 2.5), b.Color));
        Assert.True(Same(r.At(2, 0.5), a.Color));
        Assert.True(Light(r.At(2, 1.5)));
        Assert.Equal((0.0, 3.0), (r.Plot.Axes.GetLimits().Left, r.Plot.Axes.GetLimits().Right));
    }

    [Fact]
    public void StackedBarChart_StacksSegmentsBottomToTop_LegendTopToBottom()
    {
        var chart = new StackedBarChart("", ["0", "1"], "level", "ms");
        var split = chart.AddSegment("split", [1, 2]);
        var merge = chart.AddSegment("merge", [3, 0]);

        using var r = new Rendered(chart);

        Assert.True(Same(r.At(0, 0.5), split.Color));
        Assert.True(Same(r.At(0, 2.5), merge.Color));
        Assert.True(Same(r.At(1, 1.5), split.Color));
        Assert.True(Light(r.At(1, 2.5)));
        Assert.Equal(["merge", "split"], r.Plot.GetPlottables().SelectMany(p => p.LegendItems).Select(i => i.LabelText));
    }

    [Fact]
    public void EmptyFigures_RenderTheirFrameWithANoDataMessage()
    {
        var plot = new LinePlot("nothing", "x", "y");
        plot.AddSeries("only NaN", [double.NaN], [1]);

        using var r = new Rendered(plot);

        int cx = (int)r.Data.HorizontalCenter, cy = (int)r.Data.VerticalCenter, inked = 0;
        for (int y = cy - 8; y <= cy + 8; y++)
        {
            for (int x = cx - 30; x <= cx + 30; x++)
            {
                inked += r.Image.GetPixel(x, y).Red < 128 ? 1 : 0;
            }
        }

        Assert.True(inked > 20, "expected the 'No data' text in the middle of the plot area");
        Assert.NotEmpty(new BarChart("", ["a"]).RenderPng());
        Assert.NotEmpty(new StackedStepPlot("", [0, 1]).RenderPng());
        Assert.NotEmpty(new StackedBarChart("", ["a"]).RenderPng());
    }

    [Fact]
    public void SinglePointAndEqualValues_GetAUsableRange()
    {
        var plot = new LinePlot();
        plot.AddSeries("one", [3], [3]);
        using var one = new Rendered(plot);
        AxisLimits l = one.Plot.Axes.GetLimits();
        Assert.True(l.Left < 3 && l.Right > 3 && l.Bottom < 3 && l.Top > 3);

        var flat = new LinePlot();
        flat.YAxis.Scale = AxisScale.Log2;
        flat.AddSeries("flat", [1, 2, 3], [4, 4, 4]);
        using var equal = new Rendered(flat);
        Assert.True(equal.Plot.Axes.GetLimits().Bottom < 2 && equal.Plot.Axes.GetLimits().Top > 2);
        Assert.NotEmpty(equal.MajorTicks(equal.Plot.Axes.Left));
    }

    [Fact]
    public void Render_RejectsImpossibleAxes()
    {
        var plot = new LinePlot();
        plot.AddSeries("s", [1], [1]);

        plot.YAxis.SetLimits(0, 10);
        plot.YAxis.Scale = AxisScale.Log10;
        var error = Assert.Throws<InvalidOperationException>(() => plot.RenderPng());
        Assert.Contains("above zero", error.Message, StringComparison.Ordinal);

        var bars = new BarChart("", ["a"]);
        bars.YAxis.Scale = AxisScale.Log10;
        Assert.Throws<InvalidOperationException>(() => bars.RenderPng());
    }

    [Fact]
    public void Legend_TakesACornerFreeOfData()
    {
        var plot = new LinePlot();
        plot.AddSeries("rising", [0, 10], [0, 10]);

        using var r = new Rendered(plot);

        Assert.True(r.Plot.Legend.IsVisible);
        Assert.Contains(r.Plot.Legend.Alignment, new[] { Alignment.UpperLeft, Alignment.LowerRight });
    }

    [Fact]
    public void Legend_GoesOutsideWhenEveryCornerHoldsData()
    {
        var inside = new StackedStepPlot("", [0, 1]);
        inside.AddLayer("a layer with a long name", [10]);
        inside.YAxis.SetLimits(0, 20);
        var outside = new StackedStepPlot("", [0, 1]);
        outside.AddLayer("a layer with a long name", [10]);
        outside.YAxis.SetLimits(0, 10);

        using var a = new Rendered(inside);
        using var b = new Rendered(outside);

        Assert.True(a.Plot.Legend.IsVisible);
        // Outside: the legend sits in a panel right of the data, which makes the data area narrower.
        Assert.True(b.Data.Width < a.Data.Width - 100, $"{b.Data.Width} vs {a.Data.Width}");
    }
}
