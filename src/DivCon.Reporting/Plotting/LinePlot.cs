using System.Text.Json;
using DivCon.Reporting.Plotting.Rendering;

namespace DivCon.Reporting.Plotting;

/// <summary>Lines and/or markers through (x, y) points, several series, optional logarithmic axes (use
/// <see cref="AxisScale.Log2"/> for core counts) and straight reference lines (e.g. linear speedup). Points
/// that cannot be drawn (NaN, infinite, ≤ 0 on a log axis) are skipped and break the line.</summary>
public sealed class LinePlot : Figure
{
    private static readonly MarkerShape[] s_markers = [MarkerShape.Circle, MarkerShape.Square, MarkerShape.Triangle, MarkerShape.Diamond];

    private readonly List<LineSeries> _series = [];
    private readonly List<ReferenceLine> _referenceLines = [];

    /// <summary>An empty line plot.</summary>
    public LinePlot(string title = "", string xLabel = "", string yLabel = "")
        : base(title)
    {
        XAxis.Label = xLabel;
        YAxis.Label = yLabel;
    }

    /// <summary>The horizontal axis.</summary>
    public Axis XAxis { get; } = new();

    /// <summary>The vertical axis.</summary>
    public Axis YAxis { get; } = new();

    /// <summary>The series, in the order added (later ones are drawn on top).</summary>
    public IReadOnlyList<LineSeries> Series => _series;

    /// <summary>The reference lines, drawn under the series.</summary>
    public IReadOnlyList<ReferenceLine> ReferenceLines => _referenceLines;

    /// <summary>Adds a series with the next palette colour and, unless given, the next marker of circle,
    /// square, triangle, diamond; optionally with vertical error bars (distances below and above each Y).</summary>
    /// <exception cref="ArgumentException">See <see cref="LineSeries"/>.</exception>
    public LineSeries AddSeries(string name, IReadOnlyList<double> x, IReadOnlyList<double> y,
        MarkerShape? marker = null, LinePattern pattern = LinePattern.Solid, PlotColor? color = null,
        IReadOnlyList<double>? errorMinus = null, IReadOnlyList<double>? errorPlus = null)
    {
        var series = new LineSeries(name, x, y, color ?? Palette.Get(_series.Count),
            marker ?? s_markers[_series.Count % s_markers.Length], pattern, errorMinus: errorMinus, errorPlus: errorPlus);
        _series.Add(series);
        return series;
    }

    /// <summary>Adds a series built by the caller.</summary>
    public LineSeries Add(LineSeries series)
    {
        ArgumentNullException.ThrowIfNull(series);
        _series.Add(series);
        return series;
    }

    /// <summary>Adds a reference line.</summary>
    public ReferenceLine AddReferenceLine(ReferenceLine line)
    {
        ArgumentNullException.ThrowIfNull(line);
        _referenceLines.Add(line);
        return line;
    }

    private protected override string Kind => "line";

    private protected override void WriteModel(Utf8JsonWriter writer)
    {
        WriteAxis(writer, "xAxis", XAxis);
        WriteAxis(writer, "yAxis", YAxis);
        writer.WriteStartArray("series");
        foreach (LineSeries s in _series)
        {
            writer.WriteStartObject();
            writer.WriteString("name", s.Name);
            writer.WriteString("color", s.Color.ToString());
            writer.WriteString("marker", s.Marker.ToString());
            writer.WriteString("pattern", s.Pattern.ToString());
            writer.WriteNumber("lineWidth", s.LineWidth);
            writer.WriteNumber("markerSize", s.MarkerSize);
            WriteNumbers(writer, "x", s.X);
            WriteNumbers(writer, "y", s.Y);
            WriteNumbers(writer, "errorMinus", s.ErrorMinus);
            WriteNumbers(writer, "errorPlus", s.ErrorPlus);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        WriteReferenceLines(writer, _referenceLines);
    }

    internal override bool HasData => _series.Any(s => Drawable(s).Any());

    /// <summary>The points of <paramref name="series"/> that can be placed on the axes as configured.</summary>
    private IEnumerable<(double X, double Y)> Drawable(LineSeries series)
    {
        for (int i = 0; i < series.X.Count; i++)
        {
            if (Mappable(XAxis.Scale, series.X[i]) && Mappable(YAxis.Scale, series.Y[i]))
            {
                yield return (series.X[i], series.Y[i]);
            }
        }
    }

    /// <summary>The ends of the error bars of drawable points that can be placed on the y axis.</summary>
    private IEnumerable<double> ErrorEnds(LineSeries series)
    {
        if (series.ErrorMinus is null || series.ErrorPlus is null)
        {
            yield break;
        }

        for (int i = 0; i < series.X.Count; i++)
        {
            if (Mappable(XAxis.Scale, series.X[i]) && Mappable(YAxis.Scale, series.Y[i]))
            {
                foreach (double end in new[] { series.Y[i] - series.ErrorMinus[i], series.Y[i] + series.ErrorPlus[i] })
                {
                    if (Mappable(YAxis.Scale, end))
                    {
                        yield return end;
                    }
                }
            }
        }
    }

    /// <summary>Pixel whiskers (x, top, bottom) of the series' error bars; a lower end a log axis cannot show is
    /// drawn to the bottom of the plot.</summary>
    private static IEnumerable<(double X, double Top, double Bottom)> Whiskers(LineSeries series, PlotLayout layout)
    {
        if (series.ErrorMinus is null || series.ErrorPlus is null)
        {
            yield break;
        }

        for (int i = 0; i < series.X.Count; i++)
        {
            double px = layout.X.ToPixel(series.X[i]), py = layout.Y.ToPixel(series.Y[i]);
            if (double.IsNaN(px) || double.IsNaN(py) || double.IsNaN(series.ErrorMinus[i]) || double.IsNaN(series.ErrorPlus[i]))
            {
                continue;
            }

            double top = layout.Y.ToPixel(series.Y[i] + series.ErrorPlus[i]);
            double bottom = layout.Y.ToPixel(series.Y[i] - series.ErrorMinus[i]);
            yield return (px, top, double.IsNaN(bottom) ? layout.PlotArea.Y1 + 2 : bottom);
        }
    }

    private static bool Mappable(AxisScale scale, double v) => double.IsFinite(v) && (scale == AxisScale.Linear || v > 0);

    internal override (AxisSpec X, AxisSpec Y) BuildAxes()
    {
        XAxis.ValidateForRender("x");
        YAxis.ValidateForRender("y");
        var points = _series.SelectMany(Drawable).ToList();
        var (xMin, xMax) = RangeOf(XAxis, points.Select(p => p.X), 0.04);
        var (yMin, yMax) = RangeOf(YAxis, points.Select(p => p.Y).Concat(_series.SelectMany(ErrorEnds)), 0.06);
        return (AxisSpec.From(XAxis, xMin, xMax), AxisSpec.From(YAxis, yMin, yMax));
    }

    internal override IReadOnlyList<LegendEntry> LegendEntries() =>
    [
        .. _series.Select(s => new LegendEntry(s.Name, s.Color, false, s.Marker, s.Pattern, s.LineWidth, s.MarkerSize)),
        .. _referenceLines.Select(r => new LegendEntry(r.Label, r.Color, false, MarkerShape.None, r.Pattern, 1.4)),
    ];

    internal override void DrawData(Canvas canvas, PlotLayout layout)
    {
        double s = layout.Scale;
        foreach (ReferenceLine line in _referenceLines)
        {
            foreach (List<PointD> run in ReferenceRuns(line, layout))
            {
                canvas.StrokePolyline(run, 1.4 * s, line.Color, line.Pattern);
            }
        }

        foreach (LineSeries series in _series)
        {
            List<List<PointD>> runs = Runs(series, layout);
            double cap = series.MarkerSize * s * 0.7;
            var whiskers = new List<Segment>();
            foreach (var (x, top, bottom) in Whiskers(series, layout))
            {
                whiskers.Add(new(new(x, top), new(x, bottom)));
                whiskers.Add(new(new(x - cap, top), new(x + cap, top)));
                whiskers.Add(new(new(x - cap, bottom), new(x + cap, bottom)));
            }

            canvas.StrokeSegments(whiskers, 1.2 * s, series.Color);
            foreach (List<PointD> run in runs)
            {
                canvas.StrokePolyline(run, series.LineWidth * s, series.Color, series.Pattern);
            }

            foreach (PointD p in runs.SelectMany(r => r))
            {
                canvas.DrawMarker(series.Marker, p.X, p.Y, series.MarkerSize * s, series.Color);
            }
        }
    }

    internal override IEnumerable<RectD> Obstacles(PlotLayout layout)
    {
        double s = layout.Scale;
        foreach (LineSeries series in _series)
        {
            foreach (RectD r in Along(Runs(series, layout), Math.Max(series.MarkerSize, series.LineWidth) * s / 2))
            {
                yield return r;
            }

            foreach (var (x, top, bottom) in Whiskers(series, layout))
            {
                yield return RectD.FromCorners(x - series.MarkerSize * s, top, x + series.MarkerSize * s, bottom);
            }
        }

        foreach (ReferenceLine line in _referenceLines)
        {
            foreach (RectD r in Along(ReferenceRuns(line, layout), s))
            {
                yield return r;
            }
        }
    }

    /// <summary>Small boxes every few pixels along the runs.</summary>
    private static IEnumerable<RectD> Along(List<List<PointD>> runs, double half)
    {
        foreach (List<PointD> run in runs)
        {
            for (int i = 0; i < run.Count; i++)
            {
                yield return new RectD(run[i].X - half, run[i].Y - half, run[i].X + half, run[i].Y + half);
                if (i == 0)
                {
                    continue;
                }

                PointD a = run[i - 1], b = run[i];
                double length = Math.Sqrt((b.X - a.X) * (b.X - a.X) + (b.Y - a.Y) * (b.Y - a.Y));
                int steps = Math.Min(2000, (int)(length / 5));
                for (int k = 1; k < steps; k++)
                {
                    double t = k / (double)steps;
                    double x = a.X + (b.X - a.X) * t, y = a.Y + (b.Y - a.Y) * t;
                    yield return new RectD(x - half, y - half, x + half, y + half);
                }
            }
        }
    }

    /// <summary>The series in pixels, split into runs at points that cannot be drawn.</summary>
    private static List<List<PointD>> Runs(LineSeries series, PlotLayout layout)
    {
        var runs = new List<List<PointD>>();
        List<PointD>? current = null;
        for (int i = 0; i < series.X.Count; i++)
        {
            double px = layout.X.ToPixel(series.X[i]), py = layout.Y.ToPixel(series.Y[i]);
            if (double.IsNaN(px) || double.IsNaN(py))
            {
                current = null;
                continue;
            }

            if (current is null)
            {
                current = [];
                runs.Add(current);
            }

            current.Add(new PointD(px, py));
        }

        return runs;
    }

    /// <summary>The reference line sampled across the plot width (a straight line in data space may bend on
    /// log axes), split where it cannot be drawn.</summary>
    private static List<List<PointD>> ReferenceRuns(ReferenceLine line, PlotLayout layout)
    {
        var runs = new List<List<PointD>>();
        List<PointD>? current = null;
        const int Samples = 96;
        for (int k = 0; k <= Samples; k++)
        {
            double px = layout.PlotArea.X0 + layout.PlotArea.Width * k / Samples;
            double py = layout.Y.ToPixel(line.ValueAt(layout.X.FromPixel(px)));
            if (double.IsNaN(py))
            {
                current = null;
                continue;
            }

            if (current is null)
            {
                current = [];
                runs.Add(current);
            }

            // Clamp far-away values so the stroke's bounding box stays small; the clip hides the rest.
            current.Add(new PointD(px, Math.Clamp(py, layout.PlotArea.Y0 - 1e4, layout.PlotArea.Y1 + 1e4)));
        }

        return runs;
    }
}
