using System.Text.Json;

namespace DivCon.Reporting.Plotting;

/// <summary>Rebuilding a figure from the JSON <see cref="ToJson"/> wrote, so saved figures can be redrawn.</summary>
public abstract partial class Figure
{
    /// <summary>The figure described by <paramref name="json"/>, as written by <see cref="ToJson"/>: same kind,
    /// title, axes, series, values (null read back as NaN), colours and reference lines.</summary>
    /// <exception cref="FormatException">The text is not such a figure; the message names what is missing.</exception>
    public static Figure FromJson(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        try
        {
            using JsonDocument document = JsonDocument.Parse(json);
            JsonElement root = document.RootElement;
            string kind = root.GetProperty("kind").GetString() ?? "";
            string title = root.GetProperty("title").GetString() ?? "";
            Figure figure = kind switch
            {
                "line" => ReadLinePlot(root, title),
                "bar" => ReadBarChart(root, title),
                "stackedBar" => ReadStackedBarChart(root, title),
                "stackedStep" => ReadStackedStepPlot(root, title),
                _ => throw new FormatException($"Unknown figure kind '{kind}'; expected line, bar, stackedBar or stackedStep."),
            };
            figure.ShowLegend = root.GetProperty("showLegend").GetBoolean();
            return figure;
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException or ArgumentException)
        {
            throw new FormatException($"Not a figure written by Figure.ToJson: {e.Message}", e);
        }
    }

    private static LinePlot ReadLinePlot(JsonElement root, string title)
    {
        var plot = new LinePlot(title);
        ReadAxis(root.GetProperty("xAxis"), plot.XAxis);
        ReadAxis(root.GetProperty("yAxis"), plot.YAxis);
        foreach (JsonElement s in root.GetProperty("series").EnumerateArray())
        {
            plot.Add(new LineSeries(
                s.GetProperty("name").GetString() ?? "",
                ReadNumbers(s.GetProperty("x"))!,
                ReadNumbers(s.GetProperty("y"))!,
                PlotColor.FromHex(s.GetProperty("color").GetString() ?? ""),
                Enum.Parse<MarkerShape>(s.GetProperty("marker").GetString() ?? ""),
                Enum.Parse<LinePattern>(s.GetProperty("pattern").GetString() ?? ""),
                s.GetProperty("lineWidth").GetDouble(),
                s.GetProperty("markerSize").GetDouble(),
                errorMinus: ReadNumbers(s.GetProperty("errorMinus")),
                errorPlus: ReadNumbers(s.GetProperty("errorPlus"))));
        }

        foreach (ReferenceLine line in ReadReferenceLines(root))
        {
            plot.AddReferenceLine(line);
        }

        return plot;
    }

    private static BarChart ReadBarChart(JsonElement root, string title)
    {
        var chart = new BarChart(title, ReadStrings(root.GetProperty("groups")), root.GetProperty("xLabel").GetString() ?? "");
        ReadAxis(root.GetProperty("yAxis"), chart.YAxis);
        foreach (BarSeries series in ReadBarSeries(root.GetProperty("series")))
        {
            chart.Add(series);
        }

        foreach (ReferenceLine line in ReadReferenceLines(root))
        {
            chart.AddHorizontalLine(line.Intercept, line.Label, line.Color);
        }

        return chart;
    }

    private static StackedBarChart ReadStackedBarChart(JsonElement root, string title)
    {
        var chart = new StackedBarChart(title, ReadStrings(root.GetProperty("categories")), root.GetProperty("xLabel").GetString() ?? "");
        ReadAxis(root.GetProperty("yAxis"), chart.YAxis);
        foreach (BarSeries segment in ReadBarSeries(root.GetProperty("segments")))
        {
            chart.AddSegment(segment.Name, segment.Values, segment.Color);
        }

        return chart;
    }

    private static StackedStepPlot ReadStackedStepPlot(JsonElement root, string title)
    {
        var plot = new StackedStepPlot(title, ReadNumbers(root.GetProperty("times"))!);
        ReadAxis(root.GetProperty("xAxis"), plot.XAxis);
        ReadAxis(root.GetProperty("yAxis"), plot.YAxis);
        foreach (JsonElement layer in root.GetProperty("layers").EnumerateArray())
        {
            plot.AddLayer(layer.GetProperty("name").GetString() ?? "", ReadNumbers(layer.GetProperty("values"))!,
                PlotColor.FromHex(layer.GetProperty("color").GetString() ?? ""));
        }

        foreach (ReferenceLine line in ReadReferenceLines(root))
        {
            plot.AddHorizontalLine(line.Intercept, line.Label, line.Color);
        }

        return plot;
    }

    private static void ReadAxis(JsonElement element, Axis axis)
    {
        axis.Label = element.GetProperty("label").GetString() ?? "";
        axis.Scale = Enum.Parse<AxisScale>(element.GetProperty("scale").GetString() ?? "");
        axis.IntegerTicks = element.GetProperty("integerTicks").GetBoolean();
        JsonElement min = element.GetProperty("min"), max = element.GetProperty("max");
        if (min.ValueKind == JsonValueKind.Number && max.ValueKind == JsonValueKind.Number)
        {
            axis.SetLimits(min.GetDouble(), max.GetDouble());
        }
    }

    private static double[]? ReadNumbers(JsonElement element) => element.ValueKind == JsonValueKind.Null
        ? null
        : [.. element.EnumerateArray().Select(e => e.ValueKind == JsonValueKind.Null ? double.NaN : e.GetDouble())];

    private static string[] ReadStrings(JsonElement element) => [.. element.EnumerateArray().Select(e => e.GetString() ?? "")];

    private static IEnumerable<BarSeries> ReadBarSeries(JsonElement array) =>
        [.. array.EnumerateArray().Select(s => new BarSeries(
            s.GetProperty("name").GetString() ?? "",
            ReadNumbers(s.GetProperty("values"))!,
            PlotColor.FromHex(s.GetProperty("color").GetString() ?? ""),
            ReadNumbers(s.GetProperty("errorMinus")),
            ReadNumbers(s.GetProperty("errorPlus"))))];

    private static IEnumerable<ReferenceLine> ReadReferenceLines(JsonElement root) =>
        [.. root.GetProperty("referenceLines").EnumerateArray().Select(r => new ReferenceLine(
            r.GetProperty("label").GetString() ?? "",
            r.GetProperty("slope").GetDouble(),
            r.GetProperty("intercept").GetDouble(),
            PlotColor.FromHex(r.GetProperty("color").GetString() ?? ""),
            Enum.Parse<LinePattern>(r.GetProperty("pattern").GetString() ?? "")))];
}
