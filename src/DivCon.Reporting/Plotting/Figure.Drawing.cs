using DivCon.Reporting.Plotting.Rendering;

namespace DivCon.Reporting.Plotting;

/// <summary>Drawing the frame, grid, ticks, labels, title and legend around the data.</summary>
public abstract partial class Figure
{
    private static readonly PlotColor s_gridColor = new(229, 229, 229);
    private static readonly PlotColor s_frameColor = new(34, 34, 34);
    private static readonly PlotColor s_textColor = new(17, 17, 17);
    private static readonly PlotColor s_mutedText = new(120, 120, 120);

    private void Draw(Canvas canvas, PlotLayout layout, AxisSpec xSpec, AxisSpec ySpec, IReadOnlyList<LegendEntry> legend)
    {
        double s = layout.Scale;
        RectD area = layout.PlotArea;
        double gridWidth = Math.Max(1, Math.Round(s));

        // Grid under everything.
        foreach (Tick tick in layout.YTicks)
        {
            double y = Canvas.Crisp(layout.Y.ToPixel(tick.Value));
            if (ySpec.Categories is null && y > area.Y0 + 1 && y < area.Y1 - 1)
            {
                canvas.StrokePolyline([new(area.X0, y), new(area.X1, y)], gridWidth, s_gridColor, LinePattern.Solid);
            }
        }

        if (xSpec.Categories is null && VerticalGrid)
        {
            foreach (Tick tick in layout.XTicks)
            {
                double x = Canvas.Crisp(layout.X.ToPixel(tick.Value));
                if (x > area.X0 + 1 && x < area.X1 - 1)
                {
                    canvas.StrokePolyline([new(x, area.Y0), new(x, area.Y1)], gridWidth, s_gridColor, LinePattern.Solid);
                }
            }
        }

        canvas.SetClip(area.X0, area.Y0, area.X1, area.Y1);
        if (HasData)
        {
            DrawData(canvas, layout);
        }
        else
        {
            canvas.DrawText("No data", (area.X0 + area.X1) / 2, (area.Y0 + area.Y1) / 2, LabelPx * s, s_mutedText, HAlign.Center, VAlign.Middle);
        }

        canvas.ResetClip();

        // Frame on whole-pixel centres so it is crisp.
        double fx0 = Canvas.Crisp(area.X0), fy0 = Canvas.Crisp(area.Y0), fx1 = Canvas.Crisp(area.X1), fy1 = Canvas.Crisp(area.Y1);
        canvas.StrokeSegments(
        [
            new(new(fx0, fy0), new(fx1, fy0)), new(new(fx1, fy0), new(fx1, fy1)),
            new(new(fx1, fy1), new(fx0, fy1)), new(new(fx0, fy1), new(fx0, fy0)),
        ], gridWidth, s_frameColor);

        double tickLength = 5 * s, gap = 4 * s, pad = 8 * s;
        foreach (double v in layout.YMinorTicks)
        {
            double y = Canvas.Crisp(layout.Y.ToPixel(v));
            canvas.StrokeSegments([new(new(fx0 - tickLength * 0.6, y), new(fx0, y))], gridWidth, s_frameColor);
        }

        foreach (double v in layout.XMinorTicks)
        {
            double x = Canvas.Crisp(layout.X.ToPixel(v));
            canvas.StrokeSegments([new(new(x, fy1), new(x, fy1 + tickLength * 0.6))], gridWidth, s_frameColor);
        }

        foreach (Tick tick in layout.YTicks)
        {
            double y = Canvas.Crisp(layout.Y.ToPixel(tick.Value));
            canvas.StrokeSegments([new(new(fx0 - tickLength, y), new(fx0, y))], gridWidth, s_frameColor);
            canvas.DrawText(tick.Label, fx0 - tickLength - gap, y, TickPx * s, s_textColor, HAlign.Right, VAlign.Middle);
        }

        for (int i = 0; i < layout.XTicks.Count; i++)
        {
            Tick tick = layout.XTicks[i];
            double x = Canvas.Crisp(layout.X.ToPixel(tick.Value));
            if (xSpec.Categories is null)
            {
                canvas.StrokeSegments([new(new(x, fy1), new(x, fy1 + tickLength))], gridWidth, s_frameColor);
            }

            double row = layout.XTickRows > 1 ? i % layout.XTickRows : 0;
            canvas.DrawText(tick.Label, x, fy1 + tickLength + gap + row * layout.XTickRowPx, layout.TickFontPx, s_textColor, HAlign.Center, VAlign.Top);
        }

        if (xSpec.Label.Length > 0)
        {
            double y = canvas.Height - pad - StrokeFont.DescentPx(LabelPx * s);
            canvas.DrawText(xSpec.Label, (area.X0 + area.X1) / 2, y, Fit(xSpec.Label, LabelPx * s, canvas.Width - 2 * pad), s_textColor, HAlign.Center, VAlign.Baseline);
        }

        if (ySpec.Label.Length > 0)
        {
            canvas.DrawText(ySpec.Label, pad, (area.Y0 + area.Y1) / 2, Fit(ySpec.Label, LabelPx * s, area.Height + 40 * s), s_textColor, HAlign.Center, VAlign.Top, 90);
        }

        if (Title.Length > 0)
        {
            double size = Fit(Title, TitlePx * s, canvas.Width - 2 * pad);
            double half = StrokeFont.MeasureWidth(Title, size) / 2;
            // Centred over the plot area, but kept inside the image when the title is wide.
            double x = Math.Clamp((area.X0 + area.X1) / 2, pad + half, canvas.Width - pad - half);
            canvas.DrawText(Title, x, pad, size, s_textColor, HAlign.Center, VAlign.Top, 0, bold: true);
        }

        if (layout.Legend is { } box)
        {
            DrawLegend(canvas, box, legend, s);
        }
    }

    /// <summary>The font size, at most <paramref name="size"/> and at least 8 px, at which
    /// <paramref name="text"/> fits in <paramref name="maxWidth"/> pixels (below 8 px it overflows instead of
    /// becoming unreadable).</summary>
    private static double Fit(string text, double size, double maxWidth)
    {
        double width = StrokeFont.MeasureWidth(text, size);
        return width <= maxWidth ? size : Math.Max(8, size * maxWidth / width);
    }

    private static void DrawLegend(Canvas canvas, RectD box, IReadOnlyList<LegendEntry> legend, double s)
    {
        double bx0 = Canvas.Crisp(box.X0), by0 = Canvas.Crisp(box.Y0), bx1 = Canvas.Crisp(box.X1), by1 = Canvas.Crisp(box.Y1);
        canvas.FillRect(bx0, by0, bx1, by1, PlotColor.White.WithAlpha(235));
        canvas.StrokeSegments(
        [
            new(new(bx0, by0), new(bx1, by0)), new(new(bx1, by0), new(bx1, by1)),
            new(new(bx1, by1), new(bx0, by1)), new(new(bx0, by1), new(bx0, by0)),
        ], Math.Max(1, Math.Round(s)), new PlotColor(170, 170, 170));

        double row = LegendRowHeight(s);
        double y = box.Y0 + 6 * s + row / 2;
        foreach (LegendEntry entry in legend)
        {
            double sx0 = box.X0 + 8 * s, sx1 = sx0 + 26 * s;
            if (entry.Box)
            {
                canvas.FillRect(sx0 + 4 * s, y - 5 * s, sx1 - 4 * s, y + 5 * s, entry.Color);
            }
            else
            {
                if (entry.Pattern != LinePattern.None)
                {
                    canvas.StrokePolyline([new(sx0, y), new(sx1, y)], entry.LineWidth * s, entry.Color, entry.Pattern);
                }

                canvas.DrawMarker(entry.Marker, (sx0 + sx1) / 2, y, entry.MarkerSize * s, entry.Color);
            }

            canvas.DrawText(entry.Name, sx1 + 6 * s, y, LegendPx * s, s_textColor, HAlign.Left, VAlign.Middle);
            y += row;
        }
    }
}
