using ScottPlot;
using SkiaSharp;

namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>How every figure looks: fonts and their sizes, grid, and the model's colours, markers and line patterns
/// in ScottPlot's terms.</summary>
internal static class FigureStyle
{
    public const float TitleSize = 16, LabelSize = 14, TickSize = 12, LegendSize = 12;

    private static readonly ScottPlot.Color s_grid = new(229, 229, 229);

    public static void Apply(Plot plot, string title)
    {
        plot.Font.Set(EmbeddedFont.FamilyName);
        plot.Title(title, TitleSize);
        plot.Axes.Title.Label.Bold = true;
        foreach (IAxis axis in new IAxis[] { plot.Axes.Bottom, plot.Axes.Left })
        {
            axis.Label.FontSize = LabelSize;
            axis.Label.Bold = false;
            axis.TickLabelStyle.FontSize = TickSize;
        }

        plot.Legend.FontSize = LegendSize;
        plot.Legend.ShadowColor = Colors.Transparent;
        plot.Legend.SymbolWidth = 26;
        plot.Legend.OutlineColor = new ScottPlot.Color(170, 170, 170);
        plot.Grid.MajorLineColor = s_grid;
    }

    /// <summary>The width of <paramref name="text"/> in pixels at <paramref name="size"/>, in the embedded font.</summary>
    public static float TextWidth(string text, float size)
    {
        using var font = new SKFont(EmbeddedFont.Regular, size);
        return font.MeasureText(text);
    }

    public static ScottPlot.Color Color(PlotColor c) => new(c.R, c.G, c.B, c.A);

    public static ScottPlot.MarkerShape Marker(MarkerShape m) => m switch
    {
        MarkerShape.Circle => ScottPlot.MarkerShape.FilledCircle,
        MarkerShape.Square => ScottPlot.MarkerShape.FilledSquare,
        MarkerShape.Triangle => ScottPlot.MarkerShape.FilledTriangleUp,
        MarkerShape.Diamond => ScottPlot.MarkerShape.FilledDiamond,
        _ => ScottPlot.MarkerShape.None,
    };

    public static ScottPlot.LinePattern Pattern(LinePattern p) => p switch
    {
        LinePattern.Dashed => ScottPlot.LinePattern.Dashed,
        LinePattern.Dotted => ScottPlot.LinePattern.Dotted,
        _ => ScottPlot.LinePattern.Solid,
    };

    /// <summary>Horizontal guide lines across the plot at the lines' intercepts (e.g. NTT = 1).</summary>
    public static void HorizontalLines(Plot plot, IEnumerable<ReferenceLine> lines, LegendPlacer legend, double xMin, double xMax)
    {
        foreach (ReferenceLine line in lines)
        {
            plot.Add.HorizontalLine(line.Intercept, 1.4f, Color(line.Color), Pattern(line.Pattern)).LegendText = line.Label;
            legend.AvoidSegment(xMin, line.Intercept, xMax, line.Intercept);
        }
    }

    /// <summary>Category names under the x axis at 0, 1, 2, …: side by side when they fit, on two alternating
    /// rows when that makes them fit, otherwise tilted.</summary>
    public static void Categories(Plot plot, IReadOnlyList<string> names, int width)
    {
        double[] positions = [.. Enumerable.Range(0, names.Count).Select(i => (double)i)];
        float widest = names.Count == 0 ? 0 : names.Max(n => TextWidth(n, TickSize));
        double slot = (width - 120.0) / Math.Max(1, names.Count);
        IAxis bottom = plot.Axes.Bottom;
        if (widest <= slot - 8)
        {
            bottom.SetTicks(positions, [.. names]);
        }
        else if (widest <= 2 * slot - 8)
        {
            // Every other name one line lower.
            bottom.SetTicks(positions, [.. names.Select((n, i) => i % 2 == 0 ? n : "\n" + n)]);
        }
        else
        {
            const float Degrees = 30;
            bottom.SetTicks(positions, [.. names]);
            bottom.TickLabelStyle.Rotation = Degrees;
            bottom.TickLabelStyle.Alignment = Alignment.MiddleLeft;
            // Room under the axis and right of the plot for the tilted names, which ScottPlot does not measure.
            double radians = Degrees * Math.PI / 180;
            bottom.MinimumSize = (float)(widest * Math.Sin(radians) + 2 * TickSize + LabelSize + 12);
            plot.Axes.Right.MinimumSize = (float)Math.Max(0, widest * Math.Cos(radians) - slot / 2);
        }

        bottom.MajorTickStyle.Length = 0;
        plot.Grid.XAxisStyle.IsVisible = false;
    }
}
