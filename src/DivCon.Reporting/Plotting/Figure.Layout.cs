using DivCon.Reporting.Plotting.Rendering;

namespace DivCon.Reporting.Plotting;

/// <summary>Layout: margins from the measured text, ticks from the plot size, legend placement.</summary>
public abstract partial class Figure
{
    private const double TitlePx = 16, LabelPx = 13, TickPx = 11, LegendPx = 12;

    private PlotLayout ComputeLayout(int width, int height, AxisSpec xSpec, AxisSpec ySpec, IReadOnlyList<LegendEntry> legend)
    {
        double s = Math.Max(1, Math.Min(width / (double)DefaultWidth, height / (double)DefaultHeight));
        PlotLayout inside = ComputeLayout(width, height, xSpec, ySpec, legend, s, outside: false);
        if (legend.Count == 0 || inside.Legend is null)
        {
            return inside;
        }

        RectD box = inside.Legend.Value;
        bool covers = Obstacles(inside).Any(r => r.Intersects(box.Inflate(3 * s)));
        if (!covers)
        {
            return inside;
        }

        PlotLayout outside = ComputeLayout(width, height, xSpec, ySpec, legend, s, outside: true);
        // Only move the legend out when the plot keeps most of the width.
        return outside.PlotArea.Width >= 0.5 * width ? outside : inside;
    }

    private PlotLayout ComputeLayout(int width, int height, AxisSpec xSpec, AxisSpec ySpec,
        IReadOnlyList<LegendEntry> legend, double s, bool outside)
    {
        double pad = 8 * s, tickLength = 5 * s, gap = 4 * s;
        double titleH = Title.Length > 0 ? StrokeFont.CapHeightPx(TitlePx * s) + StrokeFont.DescentPx(TitlePx * s) + pad : 0;
        double labelH = StrokeFont.CapHeightPx(LabelPx * s) + StrokeFont.DescentPx(LabelPx * s);
        double tickH = StrokeFont.CapHeightPx(TickPx * s);
        (double legendW, double legendH) = MeasureLegend(legend, s);

        double top = pad + titleH + tickH / 2 + 2 * s;
        double bottom = tickLength + gap + tickH + StrokeFont.DescentPx(TickPx * s) + (xSpec.Label.Length > 0 ? pad + labelH : 0) + pad;
        double right = 12 * s + (outside ? legendW + 2 * pad : 0);
        double left = 60 * s;
        double tickFont = TickPx * s;
        double rowPx = tickH + StrokeFont.DescentPx(TickPx * s) + gap;
        int xRows = 1;
        IReadOnlyList<Tick> xTicks = [], yTicks = [];
        for (int pass = 0; pass < 3; pass++)
        {
            double plotH = Math.Max(10, height - top - bottom - (xRows - 1) * rowPx);
            yTicks = ySpec.Categories is { } yCategories
                ? [.. yCategories.Select((c, i) => new Tick(i, c))]
                : TickGenerator.Generate(ySpec.Scale, ySpec.Min, ySpec.Max, Math.Clamp((int)(plotH / (42 * s)), 2, 10), ySpec.IntegerTicks);
            double yLabelW = yTicks.Count == 0 ? 0 : yTicks.Max(t => StrokeFont.MeasureWidth(t.Label, tickFont));
            left = pad + (ySpec.Label.Length > 0 ? labelH + pad : 0) + yLabelW + gap + tickLength;
            double plotW = Math.Max(10, width - left - right);
            (xTicks, tickFont, xRows) = XTicks(xSpec, plotW, s);
            double lastHalf = xTicks.Count == 0 ? 0 : StrokeFont.MeasureWidth(xTicks[^1].Label, tickFont) / 2;
            right = Math.Max(12 * s, lastHalf + 4 * s) + (outside ? legendW + 2 * pad : 0);
        }

        bottom += (xRows - 1) * rowPx;
        var area = new RectD(left, top, Math.Max(left + 10, width - right), Math.Max(top + 10, height - bottom));
        var xMap = new AxisMap(xSpec.Scale, xSpec.Min, xSpec.Max, area.X0, area.X1);
        var yMap = new AxisMap(ySpec.Scale, ySpec.Min, ySpec.Max, area.Y1, area.Y0);
        RectD? legendBox = null;
        if (legend.Count > 0)
        {
            if (outside)
            {
                legendBox = new RectD(area.X1 + pad, area.Y0, area.X1 + pad + legendW, area.Y0 + legendH);
            }
            else
            {
                var probe = new PlotLayout
                {
                    Scale = s,
                    PlotArea = area,
                    X = xMap,
                    Y = yMap,
                    XTicks = xTicks,
                    YTicks = yTicks,
                    TickFontPx = tickFont,
                    XTickRows = xRows,
                    XTickRowPx = rowPx,
                };
                legendBox = BestCorner(area, legendW, legendH, pad, Obstacles(probe).ToList(), s);
            }
        }

        return new PlotLayout
        {
            Scale = s,
            PlotArea = area,
            X = xMap,
            Y = yMap,
            XTicks = xTicks,
            YTicks = yTicks,
            TickFontPx = tickFont,
            XTickRows = xRows,
            XTickRowPx = rowPx,
            XMinorTicks = xSpec.Categories is null ? TickGenerator.Minor(xSpec.Scale, xSpec.Min, xSpec.Max, xTicks) : [],
            YMinorTicks = ySpec.Categories is null ? TickGenerator.Minor(ySpec.Scale, ySpec.Min, ySpec.Max, yTicks) : [],
            Legend = legendBox,
            LegendOutside = outside,
        };
    }

    /// <summary>X ticks for the plot width: numeric ticks thinned until their labels do not touch; category
    /// labels shrunk (down to 8 px) until they fit their slots, and when even that is too wide, set on two
    /// alternating rows (each label then has two slots) and shrunk again as needed.</summary>
    private static (IReadOnlyList<Tick> Ticks, double FontPx, int Rows) XTicks(AxisSpec spec, double plotW, double s)
    {
        double font = TickPx * s;
        if (spec.Categories is { } categories)
        {
            IReadOnlyList<Tick> ticks = [.. categories.Select((c, i) => new Tick(i, c))];
            double slot = plotW / Math.Max(1, categories.Count);
            for (int rows = 1; ; rows++)
            {
                font = TickPx * s;
                while (font > 8 * s && ticks.Any(t => StrokeFont.MeasureWidth(t.Label, font) > rows * slot - 4 * s))
                {
                    font -= 0.5 * s;
                }

                bool fits = ticks.All(t => StrokeFont.MeasureWidth(t.Label, font) <= rows * slot - 4 * s);
                if (fits || rows == 2 || categories.Count < 2)
                {
                    return (ticks, font, rows);
                }
            }
        }

        for (int maxTicks = Math.Clamp((int)(plotW / (70 * s)), 2, 12); ; maxTicks--)
        {
            IReadOnlyList<Tick> ticks = TickGenerator.Generate(spec.Scale, spec.Min, spec.Max, maxTicks, spec.IntegerTicks);
            var map = new AxisMap(spec.Scale, spec.Min, spec.Max, 0, plotW);
            bool overlap = false;
            for (int i = 1; i < ticks.Count && !overlap; i++)
            {
                double distance = map.ToPixel(ticks[i].Value) - map.ToPixel(ticks[i - 1].Value);
                double needed = (StrokeFont.MeasureWidth(ticks[i].Label, font) + StrokeFont.MeasureWidth(ticks[i - 1].Label, font)) / 2 + 8 * s;
                overlap = distance < needed;
            }

            if (!overlap || maxTicks <= 2)
            {
                return (ticks, font, 1);
            }
        }
    }

    private static (double Width, double Height) MeasureLegend(IReadOnlyList<LegendEntry> legend, double s)
    {
        if (legend.Count == 0)
        {
            return (0, 0);
        }

        double font = LegendPx * s;
        double nameW = legend.Max(e => StrokeFont.MeasureWidth(e.Name, font));
        double width = 8 * s + 26 * s + 6 * s + nameW + 8 * s;
        double height = 6 * s + legend.Count * LegendRowHeight(s) + 2 * s;
        return (width, height);
    }

    private static double LegendRowHeight(double s) => LegendPx * s * 1.55;

    /// <summary>The inner corner (top-right, top-left, bottom-right, bottom-left, in that order of preference)
    /// whose legend box touches the fewest data rectangles.</summary>
    private static RectD BestCorner(RectD area, double w, double h, double pad, List<RectD> obstacles, double s)
    {
        RectD[] corners =
        [
            new(area.X1 - pad - w, area.Y0 + pad, area.X1 - pad, area.Y0 + pad + h),
            new(area.X0 + pad, area.Y0 + pad, area.X0 + pad + w, area.Y0 + pad + h),
            new(area.X1 - pad - w, area.Y1 - pad - h, area.X1 - pad, area.Y1 - pad),
            new(area.X0 + pad, area.Y1 - pad - h, area.X0 + pad + w, area.Y1 - pad),
        ];
        RectD best = corners[0];
        int bestCount = int.MaxValue;
        foreach (RectD corner in corners)
        {
            RectD probe = corner.Inflate(3 * s);
            int count = obstacles.Count(o => o.Intersects(probe));
            if (count < bestCount)
            {
                best = corner;
                bestCount = count;
            }
        }

        return best;
    }
}
