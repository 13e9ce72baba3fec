using DivCon.Reporting.Plotting;

namespace DivCon.Tests.Reporting;

public sealed class FigureModelTests
{
    [Fact]
    public void LinePlot_HoldsExactlyTheValuesPassed_AndCopiesThem()
    {
        double[] x = [1, 2, 4, 8];
        double[] y = [1, 1.9, double.NaN, 6.25];
        var plot = new LinePlot("t", "cores", "speedup");

        LineSeries series = plot.AddSeries("actual", x, y);
        x[0] = 99;
        y[1] = 99;

        Assert.Same(series, Assert.Single(plot.Series));
        Assert.Equal([1, 2, 4, 8], series.X);
        Assert.Equal([1, 1.9, double.NaN, 6.25], series.Y);
        Assert.Equal("actual", series.Name);
        Assert.Equal(Palette.Get(0), series.Color);
        Assert.Equal("cores", plot.XAxis.Label);
        Assert.Equal("speedup", plot.YAxis.Label);
    }

    [Fact]
    public void LinePlot_GivesEachNewSeriesTheNextColourAndMarker()
    {
        var plot = new LinePlot();
        var a = plot.AddSeries("a", [1], [1]);
        var b = plot.AddSeries("b", [1], [1]);
        var c = plot.AddSeries("c", [1], [1], MarkerShape.None, LinePattern.Dashed, new PlotColor(0, 0, 0));

        Assert.NotEqual(a.Color, b.Color);
        Assert.Equal((MarkerShape.Circle, MarkerShape.Square), (a.Marker, b.Marker));
        Assert.Equal((MarkerShape.None, LinePattern.Dashed, new PlotColor(0, 0, 0)), (c.Marker, c.Pattern, c.Color));
    }

    [Fact]
    public void LineSeries_RejectsMismatchedAndEmptyInput()
    {
        var plot = new LinePlot();

        var mismatch = Assert.Throws<ArgumentException>(() => plot.AddSeries("s", [1, 2], [1]));
        Assert.Contains("X has 2 values but Y has 1", mismatch.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => plot.AddSeries("s", [], []));
        Assert.Throws<ArgumentOutOfRangeException>(() => new LineSeries("s", [1], [1], new PlotColor(0, 0, 0), lineWidth: 0));
        Assert.Empty(plot.Series);
    }

    [Fact]
    public void LineSeries_KeepsErrorsAndRejectsBadOnes()
    {
        var plot = new LinePlot();

        LineSeries s = plot.AddSeries("s", [1, 2], [3, 4], errorMinus: [0.1, double.NaN], errorPlus: [0.2, 0.3]);

        Assert.Equal([0.1, double.NaN], s.ErrorMinus!);
        Assert.Equal([0.2, 0.3], s.ErrorPlus!);
        Assert.Throws<ArgumentException>(() => plot.AddSeries("s", [1, 2], [3, 4], errorMinus: [0.1, 0.1]));
        Assert.Throws<ArgumentException>(() => plot.AddSeries("s", [1, 2], [3, 4], errorMinus: [0.1], errorPlus: [0.1]));
        Assert.Throws<ArgumentException>(() => plot.AddSeries("s", [1, 2], [3, 4], errorMinus: [0.1, -1], errorPlus: [0.1, 1]));
    }

    [Fact]
    public void BarChart_HoldsValuesAndAsymmetricErrorsAsGiven()
    {
        var chart = new BarChart("NTT", ["fib", "sort"], "program", "NTT");

        BarSeries s = chart.AddSeries("equi", [1.5, double.NaN], [0.1, 0.2], [0.3, double.NaN]);
        BarSeries sym = chart.AddSeries("tpl", [2, 3], [0.5, 0.25], [0.5, 0.25]);
        ReferenceLine one = chart.AddHorizontalLine(1, "NTT = 1");

        Assert.Equal(["fib", "sort"], chart.Groups);
        Assert.Equal([1.5, double.NaN], s.Values);
        Assert.Equal([0.1, 0.2], s.ErrorMinus!);
        Assert.Equal([0.3, double.NaN], s.ErrorPlus!);
        Assert.Equal(sym.ErrorMinus!, sym.ErrorPlus!);
        Assert.Equal((0.0, 1.0, "NTT = 1"), (one.Slope, one.Intercept, one.Label));
        Assert.Equal([s, sym], chart.Series);
    }

    [Fact]
    public void BarChart_RejectsBadSeriesWithMessagesSayingWhatIsAllowed()
    {
        var chart = new BarChart("", ["a", "b", "c"]);

        var wrongCount = Assert.Throws<ArgumentException>(() => chart.AddSeries("s", [1, 2]));
        Assert.Contains("one per group", wrongCount.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => chart.AddSeries("s", [1, 2, 3], [0.1, -0.1, 0.1], [0.1, 0.1, 0.1]));
        Assert.Throws<ArgumentException>(() => chart.AddSeries("s", [1, 2, 3], [0.1, 0.1], [0.1, 0.1]));
        Assert.Throws<ArgumentException>(() => chart.AddSeries("s", [1, double.PositiveInfinity, 3]));
        Assert.Throws<ArgumentException>(() => new BarSeries("s", [1], new PlotColor(0, 0, 0), [0.1], null));
        Assert.Throws<ArgumentException>(() => new BarChart("", []));
        Assert.Empty(chart.Series);
    }

    [Fact]
    public void StackedStepPlot_ValidatesTimesAndLayers()
    {
        Assert.Throws<ArgumentException>(() => new StackedStepPlot("", [0]));
        Assert.Throws<ArgumentException>(() => new StackedStepPlot("", [0, 2, 1]));
        Assert.Throws<ArgumentException>(() => new StackedStepPlot("", [1, 1]));
        Assert.Throws<ArgumentException>(() => new StackedStepPlot("", [0, double.NaN]));

        var plot = new StackedStepPlot("", [0, 1, 3]);
        Assert.Throws<ArgumentException>(() => plot.AddLayer("p", [1, 2, 3]));
        Assert.Throws<ArgumentException>(() => plot.AddLayer("p", [1, -2]));
        StepLayer layer = plot.AddLayer("p", [2, double.NaN]);
        Assert.Equal([0, 1, 3], plot.Times);
        Assert.Equal([2, double.NaN], layer.Values);
    }

    [Fact]
    public void StackedBarChart_RejectsNegativeSegments()
    {
        var chart = new StackedBarChart("", ["0", "1"]);

        Assert.Throws<ArgumentException>(() => chart.AddSegment("split", [1, -1]));
        Assert.Throws<ArgumentException>(() => chart.AddSegment("split", [1]));
        BarSeries merge = chart.AddSegment("merge", [0.5, 0]);
        Assert.Equal([0.5, 0], merge.Values);
    }

    [Fact]
    public void Axis_LimitsMustBeFiniteAndOrdered()
    {
        var axis = new Axis();

        Assert.Throws<ArgumentOutOfRangeException>(() => axis.SetLimits(2, 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => axis.SetLimits(0, double.NaN));
        axis.SetLimits(-1, 1);
        Assert.Equal((-1.0, 1.0), (axis.Min!.Value, axis.Max!.Value));
    }

    [Fact]
    public void PlotColor_ParsesHexAndRejectsGarbage()
    {
        Assert.Equal(new PlotColor(0, 0x72, 0xB2), PlotColor.FromHex("#0072B2"));
        Assert.Equal(new PlotColor(1, 2, 3, 4), PlotColor.FromHex("01020304"));
        Assert.Equal("#0072B2FF", PlotColor.FromHex("#0072B2").ToString());
        Assert.Throws<ArgumentException>(() => PlotColor.FromHex("#12345"));
        Assert.Throws<ArgumentException>(() => PlotColor.FromHex("#GG0000"));
    }

    [Fact]
    public void Palette_ColoursAreDistinctAndCycle()
    {
        Assert.Equal(Palette.Colors.Count, Palette.Colors.Distinct().Count());
        Assert.Equal(Palette.Get(0), Palette.Get(Palette.Colors.Count));
    }

    // A figure with one bar per scheme (every scheme of a default cyclic run) gives each scheme its own colour.
    [Fact]
    public void Palette_HasAColourForEveryScheme()
    {
        Assert.True(Palette.Colors.Count >= DivCon.Metrics.Schemes.SchemeCatalog.All.Count,
            $"{Palette.Colors.Count} colours for {DivCon.Metrics.Schemes.SchemeCatalog.All.Count} schemes");
    }
}
