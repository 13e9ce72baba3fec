using DivCon.Reporting.Plotting;
using DivCon.Reporting.Plotting.Rendering;

namespace DivCon.Tests.Reporting;

public sealed class RenderingTests
{
    private static bool IsBackground(PlotColor c) => c.R > 240 && c.G > 240 && c.B > 240;

    private static bool Near(PlotColor a, PlotColor b, int tolerance) =>
        Math.Abs(a.R - b.R) <= tolerance && Math.Abs(a.G - b.G) <= tolerance && Math.Abs(a.B - b.B) <= tolerance;

    private static PlotColor At(RgbaImage image, double x, double y) => image.GetPixel((int)Math.Floor(x), (int)Math.Floor(y));

    [Fact]
    public void RenderPng_HasTheRequestedSizeAndDecodes()
    {
        var plot = new LinePlot("Speedup", "cores", "speedup");
        plot.AddSeries("a", [1, 2, 4], [1, 1.8, 3.1]);

        byte[] png = plot.RenderPng(640, 480);
        RgbaImage image = RgbaImage.DecodePng(png);

        Assert.True(png.Length > 2000, $"PNG of {png.Length} bytes looks empty");
        Assert.Equal((640, 480), (image.Width, image.Height));
        Assert.Equal(PlotColor.White, image.GetPixel(0, 0));
    }

    [Fact]
    public void SavePng_WritesTheSameBytesAsRenderPng()
    {
        var plot = new BarChart("x", ["a"]);
        plot.AddSeries("s", [1]);
        string path = Path.Combine(Path.GetTempPath(), $"divcon-plot-{Guid.NewGuid():N}.png");
        try
        {
            plot.SavePng(path, 320, 240);
            Assert.Equal(plot.RenderPng(320, 240), File.ReadAllBytes(path));
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void LinePlot_SeriesColoursSitWhereTheDataMaps()
    {
        var plot = new LinePlot("", "x", "y") { ShowLegend = false };
        LineSeries low = plot.AddSeries("low", [0, 5, 10], [0, 1, 2]);
        LineSeries high = plot.AddSeries("high", [0, 5, 10], [10, 9, 8], MarkerShape.Square);

        RgbaImage image = plot.Render(800, 600, out PlotLayout layout);

        foreach (LineSeries series in new[] { low, high })
        {
            for (int i = 0; i < series.X.Count; i++)
            {
                double px = layout.X.ToPixel(series.X[i]), py = layout.Y.ToPixel(series.Y[i]);
                Assert.True(layout.PlotArea.Contains(px, py));
                Assert.Equal(series.Color, At(image, px, py));
            }

            // Half way between two points the line itself is there.
            double mx = layout.X.ToPixel(2.5), my = layout.Y.ToPixel((series.Y[0] + series.Y[1]) / 2);
            Assert.True(Near(At(image, mx, my), series.Color, 40), $"{series.Name}: {At(image, mx, my)} at the line");
        }

        // Nowhere near either series: background (or a grid line, which is light grey).
        Assert.True(At(image, layout.X.ToPixel(2.5), layout.Y.ToPixel(5.3)).R > 200);
    }

    [Fact]
    public void LinePlot_DataLimitsAreInsideThePlotArea_AndTicksWithinIt()
    {
        var plot = new LinePlot();
        plot.XAxis.Scale = AxisScale.Log2;
        plot.AddSeries("s", [1, 2, 4, 8, 16], [1, 2, 3, 4, 5]);

        RgbaImage image = plot.Render(800, 600, out PlotLayout layout);

        Assert.Equal(["1", "2", "4", "8", "16"], layout.XTicks.Select(t => t.Label));
        Assert.All(layout.XTicks, t => Assert.InRange(layout.X.ToPixel(t.Value), layout.PlotArea.X0, layout.PlotArea.X1));
        Assert.All(layout.YTicks, t => Assert.InRange(layout.Y.ToPixel(t.Value), layout.PlotArea.Y0, layout.PlotArea.Y1));
        Assert.True(layout.X.ToPixel(1) > layout.PlotArea.X0 && layout.X.ToPixel(16) < layout.PlotArea.X1);
        int inked = 0;
        for (int y = (int)layout.PlotArea.Y0 + 2; y < layout.PlotArea.Y1 - 2; y++)
        {
            for (int x = (int)layout.PlotArea.X0 + 2; x < layout.PlotArea.X1 - 2; x++)
            {
                inked += IsBackground(image.GetPixel(x, y)) ? 0 : 1;
            }
        }

        Assert.True(inked > 500, $"only {inked} non-background pixels in the plot area");
    }

    [Fact]
    public void LinePlot_SkipsPointsALogAxisCannotShow_AndBreaksTheLineThere()
    {
        var plot = new LinePlot { ShowLegend = false };
        plot.YAxis.Scale = AxisScale.Log10;
        LineSeries s = plot.AddSeries("s", [1, 2, 3], [1, -1, 100], MarkerShape.Circle);

        RgbaImage image = plot.Render(640, 480, out PlotLayout layout);

        Assert.Equal(s.Color, At(image, layout.X.ToPixel(1), layout.Y.ToPixel(1)));
        Assert.Equal(s.Color, At(image, layout.X.ToPixel(3), layout.Y.ToPixel(100)));
        // Bridging point 0 to point 2 would pass through (2, 10) on these axes; the rule is a gap.
        Assert.True(At(image, layout.X.ToPixel(2), layout.Y.ToPixel(10)).R > 200);
    }

    [Fact]
    public void LinePlot_ClipsToThePlotArea()
    {
        var plot = new LinePlot { ShowLegend = false };
        plot.XAxis.SetLimits(0, 5);
        plot.YAxis.SetLimits(0, 10);
        plot.AddSeries("s", [0, 10], [0, 10], MarkerShape.None);

        RgbaImage image = plot.Render(640, 480, out PlotLayout layout);

        // The line leaves the plot at the right edge, at y = 5; beyond the frame nothing of it is drawn.
        double yAt7 = layout.Y.ToPixel(7);
        for (int x = (int)layout.PlotArea.X1 + 2; x < image.Width; x++)
        {
            Assert.True(IsBackground(image.GetPixel(x, (int)yAt7)), $"pixel ({x}, {(int)yAt7}) drawn outside the plot area");
        }

        Assert.Equal(plot.Series[0].Color, At(image, layout.X.ToPixel(4), layout.Y.ToPixel(4)));
    }

    [Fact]
    public void ReferenceLine_IdentityIsDrawnThroughItsValues()
    {
        var plot = new LinePlot { ShowLegend = false };
        plot.XAxis.Scale = AxisScale.Log2;
        plot.YAxis.Scale = AxisScale.Log2;
        plot.AddSeries("s", [1, 16], [1, 4], MarkerShape.None, LinePattern.None);
        ReferenceLine identity = plot.AddReferenceLine(new ReferenceLine("linear", 1, 0, PlotColor.Black, LinePattern.Solid));

        RgbaImage image = plot.Render(640, 480, out PlotLayout layout);

        foreach (double v in new[] { 1.5, 2.0, 3.0 })
        {
            Assert.True(Near(At(image, layout.X.ToPixel(v), layout.Y.ToPixel(v)), identity.Color, 90), $"identity line missing at {v}");
        }
    }

    [Fact]
    public void BarChart_AsymmetricErrorBarsSpanValueMinusToValuePlus()
    {
        var chart = new BarChart("", ["g"]) { ShowLegend = false };
        chart.YAxis.SetLimits(0, 5);
        BarSeries s = chart.AddSeries("s", [2], [0.5], [1.5]);

        RgbaImage image = chart.Render(600, 600, out PlotLayout layout);

        var (left, right) = chart.BarSpan(0, 0);
        int x = (int)layout.X.ToPixel((left + right) / 2);
        var dark = Enumerable.Range((int)layout.PlotArea.Y0 + 2, (int)layout.PlotArea.Height - 4)
            .Where(y => image.GetPixel(x, y) is var c && c.R < 110 && Math.Abs(c.R - c.G) < 20 && Math.Abs(c.G - c.B) < 20)
            .ToList();
        Assert.NotEmpty(dark);
        Assert.InRange(dark.Min(), layout.Y.ToPixel(3.5) - 2, layout.Y.ToPixel(3.5) + 2);
        Assert.InRange(dark.Max(), layout.Y.ToPixel(1.5) - 2, layout.Y.ToPixel(1.5) + 2);
        // Asymmetric: the whisker reaches three times as far above the value as below it.
        double above = layout.Y.ToPixel(2) - dark.Min(), below = dark.Max() - layout.Y.ToPixel(2);
        Assert.InRange(above / below, 2.6, 3.4);
        // The bar itself: its colour between its base and its value, background above the whisker.
        Assert.Equal(s.Color, At(image, layout.X.ToPixel(left) + 3, layout.Y.ToPixel(1)));
        Assert.True(IsBackground(At(image, layout.X.ToPixel(left) + 3, layout.Y.ToPixel(2.2))));
    }

    [Fact]
    public void LinePlot_AsymmetricErrorBarsSpanTheGivenDistances()
    {
        var plot = new LinePlot { ShowLegend = false };
        plot.YAxis.SetLimits(0, 10);
        LineSeries s = plot.AddSeries("s", [1, 2], [4, 6], MarkerShape.None, LinePattern.None, errorMinus: [1, 0.5], errorPlus: [3, double.NaN]);

        RgbaImage image = plot.Render(600, 600, out PlotLayout layout);

        int x = (int)layout.X.ToPixel(1);
        var inked = Enumerable.Range((int)layout.PlotArea.Y0 + 2, (int)layout.PlotArea.Height - 4)
            .Where(y => Near(image.GetPixel(x, y), s.Color, 60))
            .ToList();
        Assert.InRange(inked.Min(), layout.Y.ToPixel(7) - 2, layout.Y.ToPixel(7) + 2);
        Assert.InRange(inked.Max(), layout.Y.ToPixel(3) - 2, layout.Y.ToPixel(3) + 2);
        // A NaN error draws no bar: the point at x = 2 has no ink above or below it.
        int x2 = (int)layout.X.ToPixel(2);
        Assert.True(image.GetPixel(x2, (int)layout.Y.ToPixel(6.5)).R > 200);
        Assert.True(image.GetPixel(x2, (int)layout.Y.ToPixel(5.7)).R > 200);
    }

    [Fact]
    public void BarChart_GroupsHoldOneBarPerSeriesInOrder()
    {
        var chart = new BarChart("", ["p1", "p2", "p3"]) { ShowLegend = false };
        var a = chart.AddSeries("a", [1, 2, 3]);
        var b = chart.AddSeries("b", [3, 2, double.NaN]);

        RgbaImage image = chart.Render(800, 600, out PlotLayout layout);

        Assert.Equal(["p1", "p2", "p3"], layout.XTicks.Select(t => t.Label));
        for (int g = 0; g < 3; g++)
        {
            foreach (var (series, index) in new[] { (a, 0), (b, 1) })
            {
                var (left, right) = chart.BarSpan(g, index);
                double x = layout.X.ToPixel((left + right) / 2);
                Assert.True(left > g - 0.5 && right < g + 0.5);
                if (double.IsNaN(series.Values[g]))
                {
                    Assert.True(At(image, x, layout.Y.ToPixel(0.5)).R > 200, "a NaN value must draw no bar");
                }
                else
                {
                    Assert.Equal(series.Color, At(image, x, layout.Y.ToPixel(series.Values[g] - 0.1)));
                    Assert.True(IsBackground(At(image, x, layout.Y.ToPixel(series.Values[g] + 0.1))) || At(image, x, layout.Y.ToPixel(series.Values[g] + 0.1)).R > 200);
                }
            }
        }
    }

    [Fact]
    public void BarChart_LongCategoryLabelsGoOnTwoRowsAndNeverTouch()
    {
        string[] schemes = ["oversubscribed-free", "oversubscribed-pinned", "shared", "static-partitioned", "dynamic-partitioned", "hill-climbing", "idle-lending", "equal-shares", "tpl-default"];
        var chart = new BarChart("ANTT", schemes) { ShowLegend = false };
        chart.AddSeries("ANTT", [.. schemes.Select((_, i) => 2.0 + i * 0.1)]);

        chart.Render(800, 500, out PlotLayout layout);

        Assert.Equal(2, layout.XTickRows);
        Assert.True(layout.XTickRowPx > layout.TickFontPx * 0.5);
        for (int i = 2; i < schemes.Length; i++)
        {
            // Neighbours on the same row (two categories apart) leave a gap between their labels.
            double distance = layout.X.ToPixel(i) - layout.X.ToPixel(i - 2);
            double halfWidths = (StrokeFont.MeasureWidth(schemes[i], layout.TickFontPx) + StrokeFont.MeasureWidth(schemes[i - 2], layout.TickFontPx)) / 2;
            Assert.True(distance > halfWidths, $"'{schemes[i - 2]}' and '{schemes[i]}' touch");
        }

        // Short labels stay on one row.
        var small = new BarChart("ANTT", ["a", "b", "c"]) { ShowLegend = false };
        small.AddSeries("ANTT", [1, 2, 3]);
        small.Render(800, 500, out PlotLayout smallLayout);
        Assert.Equal(1, smallLayout.XTickRows);
    }

    [Fact]
    public void BarChart_SingleGroupLabelsBarsWithSeriesNames()
    {
        var chart = new BarChart("ANTT", ["ANTT"]);
        chart.AddSeries("tpl", [3]);
        chart.AddSeries("equi", [2]);

        chart.Render(400, 300, out PlotLayout layout);

        Assert.Equal(["tpl", "equi"], layout.XTicks.Select(t => t.Label));
        Assert.Null(layout.Legend); // the names are under the bars already
    }

    [Fact]
    public void StackedStepPlot_StacksLayersPerInterval()
    {
        var plot = new StackedStepPlot("", [0, 1, 3], "time", "cores") { ShowLegend = false };
        StepLayer a = plot.AddLayer("a", [2, 1]);
        StepLayer b = plot.AddLayer("b", [1, double.NaN]);

        RgbaImage image = plot.Render(640, 480, out PlotLayout layout);

        Assert.Equal(a.Color, At(image, layout.X.ToPixel(0.5), layout.Y.ToPixel(1)));
        Assert.Equal(b.Color, At(image, layout.X.ToPixel(0.5), layout.Y.ToPixel(2.5)));
        Assert.Equal(a.Color, At(image, layout.X.ToPixel(2), layout.Y.ToPixel(0.5)));
        Assert.True(IsBackground(At(image, layout.X.ToPixel(2), layout.Y.ToPixel(1.5))) || At(image, layout.X.ToPixel(2), layout.Y.ToPixel(1.5)).R > 200);
        Assert.Equal(0, layout.X.Min);
        Assert.Equal(3, layout.X.Max);
    }

    [Fact]
    public void StackedBarChart_StacksSegmentsBottomToTop()
    {
        var chart = new StackedBarChart("", ["0", "1"], "level", "ms") { ShowLegend = false };
        var split = chart.AddSegment("split", [1, 2]);
        var merge = chart.AddSegment("merge", [3, 0]);

        RgbaImage image = chart.Render(640, 480, out PlotLayout layout);

        Assert.Equal(split.Color, At(image, layout.X.ToPixel(0), layout.Y.ToPixel(0.5)));
        Assert.Equal(merge.Color, At(image, layout.X.ToPixel(0), layout.Y.ToPixel(2.5)));
        Assert.Equal(split.Color, At(image, layout.X.ToPixel(1), layout.Y.ToPixel(1.5)));
        Assert.True(At(image, layout.X.ToPixel(1), layout.Y.ToPixel(2.5)).R > 200);
    }

    [Fact]
    public void EmptyFigures_RenderTheirFrameWithANoDataMessage()
    {
        var plot = new LinePlot("nothing", "x", "y");
        plot.AddSeries("only NaN", [double.NaN], [1]);

        RgbaImage image = plot.Render(400, 300, out PlotLayout layout);

        double cx = (layout.PlotArea.X0 + layout.PlotArea.X1) / 2, cy = (layout.PlotArea.Y0 + layout.PlotArea.Y1) / 2;
        int inked = 0;
        for (int y = (int)cy - 6; y <= cy + 6; y++)
        {
            for (int x = (int)cx - 30; x <= cx + 30; x++)
            {
                PlotColor c = image.GetPixel(x, y);
                inked += c.R < 200 ? 1 : 0;
            }
        }

        Assert.True(inked > 20, "expected the 'No data' text in the middle of the plot area");
        new BarChart("", ["a"]).Render(400, 300);
        new StackedStepPlot("", [0, 1]).Render(400, 300);
        new StackedBarChart("", ["a"]).Render(400, 300);
    }

    [Fact]
    public void SinglePointAndEqualValues_GetAUsableRange()
    {
        var plot = new LinePlot();
        plot.AddSeries("one", [3], [3]);
        plot.Render(400, 300, out PlotLayout one);
        Assert.True(one.X.Min < 3 && one.X.Max > 3 && one.Y.Min < 3 && one.Y.Max > 3);

        var flat = new LinePlot();
        flat.YAxis.Scale = AxisScale.Log2;
        flat.AddSeries("flat", [1, 2, 3], [4, 4, 4]);
        flat.Render(400, 300, out PlotLayout equal);
        Assert.True(equal.Y.Min < 4 && equal.Y.Max > 4);
        Assert.NotEmpty(equal.YTicks);
    }

    [Fact]
    public void Render_RejectsBadSizesAndImpossibleAxes()
    {
        var plot = new LinePlot();
        plot.AddSeries("s", [1], [1]);

        Assert.Throws<ArgumentOutOfRangeException>(() => plot.Render(100, 300));
        Assert.Throws<ArgumentOutOfRangeException>(() => plot.Render(400, 20000));
        plot.YAxis.SetLimits(0, 10);
        plot.YAxis.Scale = AxisScale.Log10;
        var error = Assert.Throws<InvalidOperationException>(() => plot.Render(400, 300));
        Assert.Contains("above zero", error.Message, StringComparison.Ordinal);

        var bars = new BarChart("", ["a"]);
        bars.YAxis.Scale = AxisScale.Log10;
        Assert.Throws<InvalidOperationException>(() => bars.Render(400, 300));
    }

    [Fact]
    public void Rendering_IsDeterministic()
    {
        var chart = new BarChart("NTT", ["a", "b"], "program", "NTT");
        chart.AddSeries("s", [1.2, 2.5], [0.1, 0.2], [0.3, 0.1]);
        chart.AddHorizontalLine(1, "NTT = 1");

        Assert.Equal(chart.RenderPng(500, 400), chart.RenderPng(500, 400));
    }

    [Fact]
    public void Legend_AvoidsTheData()
    {
        var plot = new LinePlot();
        // Data hugging the top-right and bottom-left: the legend should take another corner or go outside.
        plot.AddSeries("rising", [0, 10], [0, 10]);

        plot.Render(800, 600, out PlotLayout layout);

        Assert.NotNull(layout.Legend);
        RectD box = layout.Legend.Value;
        for (double v = 0; v <= 10; v += 0.25)
        {
            Assert.False(box.Contains(layout.X.ToPixel(v), layout.Y.ToPixel(v)), $"legend covers the line at {v}");
        }
    }

    [Fact]
    public void Legend_GoesOutsideWhenEveryCornerHoldsData()
    {
        var plot = new StackedStepPlot("", [0, 1]);
        plot.AddLayer("a layer with a long name", [10]);
        plot.YAxis.SetLimits(0, 10);

        plot.Render(800, 600, out PlotLayout layout);

        Assert.True(layout.LegendOutside);
        Assert.True(layout.Legend!.Value.X0 > layout.PlotArea.X1);
    }
}
