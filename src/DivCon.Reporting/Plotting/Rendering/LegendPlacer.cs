using ScottPlot;

namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>Puts the legend in the first inner corner (top-right, top-left, bottom-right, bottom-left) that covers no
/// data, or right of the plot when every corner would. Figures report where their data lies, in plot units, as sample
/// points; the legend's size is estimated from its text in the embedded font.</summary>
internal sealed class LegendPlacer
{
    private readonly List<(double X, double Y)> _points = [];

    /// <summary>Data at one point (ignored unless finite).</summary>
    public void Avoid(double x, double y)
    {
        if (double.IsFinite(x) && double.IsFinite(y))
        {
            _points.Add((x, y));
        }
    }

    /// <summary>Data along a segment.</summary>
    public void AvoidSegment(double x0, double y0, double x1, double y1)
    {
        const int Steps = 32;
        for (int k = 0; k <= Steps; k++)
        {
            Avoid(x0 + (x1 - x0) * k / Steps, y0 + (y1 - y0) * k / Steps);
        }
    }

    /// <summary>Data filling a rectangle.</summary>
    public void AvoidRect(double x0, double y0, double x1, double y1)
    {
        const int Steps = 8;
        for (int k = 0; k <= Steps; k++)
        {
            AvoidSegment(x0 + (x1 - x0) * k / Steps, y0, x0 + (x1 - x0) * k / Steps, y1);
        }
    }

    public void Place(Plot plot, int width, int height)
    {
        string[] names = [.. plot.GetPlottables().SelectMany(p => p.LegendItems).Select(i => i.LabelText).Where(t => !string.IsNullOrEmpty(t))];
        if (names.Length == 0)
        {
            plot.HideLegend();
            return;
        }

        // The legend's share of the data area: symbol and padding plus the widest name; one row per entry.
        double plotW = Math.Max(1, width - 110), plotH = Math.Max(1, height - 110);
        double w = (50 + names.Max(n => FigureStyle.TextWidth(n, FigureStyle.LegendSize))) / plotW;
        double h = (14 + names.Length * (FigureStyle.LegendSize * 1.25 + 6)) / plotH;
        AxisLimits limits = plot.Axes.GetLimits();
        (double X, double Y)[] unit = [.. _points.Select(p => ((p.X - limits.Left) / limits.HorizontalSpan, (p.Y - limits.Bottom) / limits.VerticalSpan))];
        const double Margin = 0.03;
        (Alignment Corner, double X0, double Y0)[] corners =
        [
            (Alignment.UpperRight, 1 - w - Margin, 1 - h - Margin),
            (Alignment.UpperLeft, 0, 1 - h - Margin),
            (Alignment.LowerRight, 1 - w - Margin, 0),
            (Alignment.LowerLeft, 0, 0),
        ];
        foreach (var (corner, x0, y0) in corners)
        {
            if (!unit.Any(p => p.X >= x0 && p.X <= x0 + w + Margin && p.Y >= y0 && p.Y <= y0 + h + Margin))
            {
                plot.ShowLegend(corner);
                return;
            }
        }

        plot.ShowLegend(Edge.Right).Alignment = Alignment.UpperCenter;
    }
}
