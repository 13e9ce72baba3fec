using System.Text.Json;
using DivCon.Reporting.Plotting;

namespace DivCon.Tests.Reporting;

public sealed class FigureJsonTests
{
    private static double?[] Numbers(JsonElement array) =>
        [.. array.EnumerateArray().Select(e => e.ValueKind == JsonValueKind.Null ? (double?)null : e.GetDouble())];

    [Fact]
    public void LinePlot_JsonHoldsTheModelValues()
    {
        var plot = new LinePlot("Speedup", "cores", "speedup");
        plot.XAxis.Scale = AxisScale.Log2;
        plot.YAxis.SetLimits(0.5, 16);
        plot.AddSeries("actual", [1, 2, 4], [0.95, double.NaN, 3.3]);
        plot.AddReferenceLine(ReferenceLine.Identity("linear"));

        using JsonDocument doc = JsonDocument.Parse(plot.ToJson());
        JsonElement root = doc.RootElement;

        Assert.Equal("line", root.GetProperty("kind").GetString());
        Assert.Equal("Speedup", root.GetProperty("title").GetString());
        Assert.Equal("Log2", root.GetProperty("xAxis").GetProperty("scale").GetString());
        Assert.Equal(JsonValueKind.Null, root.GetProperty("xAxis").GetProperty("min").ValueKind);
        Assert.Equal(16, root.GetProperty("yAxis").GetProperty("max").GetDouble());
        JsonElement series = Assert.Single(root.GetProperty("series").EnumerateArray());
        Assert.Equal("actual", series.GetProperty("name").GetString());
        Assert.Equal([1, 2, 4], Numbers(series.GetProperty("x")));
        Assert.Equal([0.95, null, 3.3], Numbers(series.GetProperty("y")));
        Assert.Equal(1, Assert.Single(root.GetProperty("referenceLines").EnumerateArray()).GetProperty("slope").GetDouble());
    }

    [Fact]
    public void BarChart_JsonHoldsGroupsValuesAndErrors()
    {
        var chart = new BarChart("NTT", ["fib", "sort"], "program", "NTT");
        chart.AddSeries("equi", [1.5, 2.25], [0.1, 0.2], [0.3, 0.4]);
        chart.AddSeries("tpl", [3, 4]);

        using JsonDocument doc = JsonDocument.Parse(chart.ToJson());
        JsonElement root = doc.RootElement;
        JsonElement[] series = [.. root.GetProperty("series").EnumerateArray()];

        Assert.Equal("bar", root.GetProperty("kind").GetString());
        Assert.Equal(["fib", "sort"], root.GetProperty("groups").EnumerateArray().Select(e => e.GetString()));
        Assert.Equal([1.5, 2.25], Numbers(series[0].GetProperty("values")));
        Assert.Equal([0.1, 0.2], Numbers(series[0].GetProperty("errorMinus")));
        Assert.Equal([0.3, 0.4], Numbers(series[0].GetProperty("errorPlus")));
        Assert.Equal(JsonValueKind.Null, series[1].GetProperty("errorMinus").ValueKind);
    }

    [Fact]
    public void StepAndStackedBar_JsonHoldTheirLayers()
    {
        var step = new StackedStepPlot("alloc", [0, 1, 2]);
        step.AddLayer("p", [1, 2]);
        var stacked = new StackedBarChart("phases", ["0", "1"]);
        stacked.AddSegment("split", [0.5, 0.25]);

        using JsonDocument stepDoc = JsonDocument.Parse(step.ToJson());
        using JsonDocument stackedDoc = JsonDocument.Parse(stacked.ToJson());

        Assert.Equal([0, 1, 2], Numbers(stepDoc.RootElement.GetProperty("times")));
        Assert.Equal([1, 2], Numbers(stepDoc.RootElement.GetProperty("layers")[0].GetProperty("values")));
        Assert.Equal("stackedBar", stackedDoc.RootElement.GetProperty("kind").GetString());
        Assert.Equal([0.5, 0.25], Numbers(stackedDoc.RootElement.GetProperty("segments")[0].GetProperty("values")));
    }

    [Theory]
    [InlineData("line", "kind,title,showLegend,xAxis,yAxis,series,referenceLines")]
    [InlineData("bar", "kind,title,showLegend,xLabel,yAxis,groups,series,referenceLines")]
    [InlineData("stackedBar", "kind,title,showLegend,xLabel,yAxis,categories,segments")]
    [InlineData("stackedStep", "kind,title,showLegend,xAxis,yAxis,times,layers,referenceLines")]
    public void Json_WritesEachKindsPropertiesInTheFileOrder(string kind, string properties)
    {
        using JsonDocument doc = JsonDocument.Parse(Sample(kind).ToJson());

        Assert.Equal(properties, string.Join(",", doc.RootElement.EnumerateObject().Select(p => p.Name)));
        Assert.Equal("label,scale,integerTicks,min,max", string.Join(",", doc.RootElement.GetProperty("yAxis").EnumerateObject().Select(p => p.Name)));
    }

    public static TheoryData<string> Figures => new() { "line", "bar", "single", "stackedBar", "stackedStep" };

    private static Figure Sample(string kind)
    {
        switch (kind)
        {
            case "line":
                var line = new LinePlot("Factored", "P", "speedup") { ShowLegend = true };
                line.XAxis.Scale = AxisScale.Log2;
                line.XAxis.IntegerTicks = true;
                line.YAxis.SetLimits(0.5, 20);
                line.AddSeries("max", [1, 2, 4], [1, 1.9, double.NaN], MarkerShape.Triangle, LinePattern.Dotted, errorMinus: [0.1, 0.2, 0.3], errorPlus: [0.1, 0.4, 0.3]);
                line.AddSeries("thin", [1, 4], [1, 3], MarkerShape.None, LinePattern.Dashed, PlotColor.FromHex("#11223380"), lineWidth: 0.8, markerSize: 4);
                line.AddReferenceLine(ReferenceLine.Identity("linear"));
                return line;
            case "bar":
                var bar = new BarChart("NTT", ["a", "b"], "program", "NTT");
                bar.AddSeries("s1", [1.5, double.NaN], [0.1, 0.2], [0.3, double.NaN]);
                bar.AddSeries("s2", [2, 3]);
                bar.AddHorizontalLine(1, "NTT = 1");
                return bar;
            case "single":
                var single = new BarChart("ANTT", ["ANTT"]) { ShowLegend = false };
                single.AddSeries("tpl", [3], [0.2], [0.2]);
                return single;
            case "stackedBar":
                var stacked = new StackedBarChart("phases", ["0", "1"], "level", "ms");
                stacked.AddSegment("split", [1, 2]);
                stacked.AddSegment("merge", [3, double.NaN]);
                return stacked;
            default:
                var step = new StackedStepPlot("alloc", [0, 0.5, 2, 3], "time", "cores");
                step.AddLayer("p", [2, 2, 1]);
                step.AddLayer("q", [0, 1, 1]);
                step.AddHorizontalLine(4, "cores");
                return step;
        }
    }

    [Theory]
    [MemberData(nameof(Figures))]
    public void FromJson_RebuildsAFigureThatDrawsTheSamePicture(string kind)
    {
        Figure original = Sample(kind);

        Figure copy = Figure.FromJson(original.ToJson());

        Assert.Equal(original.GetType(), copy.GetType());
        Assert.Equal(original.ToJson(), copy.ToJson());
        Assert.Equal(original.RenderPng(), copy.RenderPng());
    }

    [Fact]
    public void FromJson_RejectsOtherTextWithAFormatException()
    {
        Assert.Throws<FormatException>(() => Figure.FromJson("{}"));
        Assert.Throws<FormatException>(() => Figure.FromJson("not json"));
        Assert.Throws<FormatException>(() => Figure.FromJson("""{"kind":"pie","title":""}"""));
    }
}
