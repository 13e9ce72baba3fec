using System.Text.Json.Serialization;
using DivCon.Reporting.Plotting.Rendering;
using ScottPlot;

namespace DivCon.Reporting.Plotting;

/// <summary>Lines and/or markers through (x, y) points, several series, optional logarithmic axes (use
/// <see cref="AxisScale.Log2"/> for core counts) and straight reference lines (e.g. linear speedup). Points
/// that cannot be drawn (NaN, infinite, ≤ 0 on a log axis) are skipped and break the line.</summary>
public sealed class LinePlot : Figure
{
    private static readonly MarkerShape[] s_markers = [MarkerShape.Circle, MarkerShape.Square, MarkerShape.Triangle, MarkerShape.Diamond];

    private readonly List<LineSeries> _series = [];

    /// <summary>An empty line plot.</summary>
    public LinePlot(string title = "", string xLabel = "", string yLabel = "")
        : base(title)
    {
        XAxis.Label = xLabel;
        YAxis.Label = yLabel;
    }

    [JsonConstructor]
    internal LinePlot(string title, Axis xAxis, Axis yAxis, IReadOnlyList<LineSeries> series, IReadOnlyList<ReferenceLine> referenceLines)
        : base(title)
    {
        (XAxis, YAxis) = (xAxis, yAxis);
        _series.AddRange(series);
        AddLines(referenceLines);
    }

    /// <summary>The horizontal axis.</summary>
    public Axis XAxis { get; } = new();

    /// <summary>The vertical axis.</summary>
    public Axis YAxis { get; } = new();

    /// <summary>The series, in the order added (later ones are drawn on top).</summary>
    public IReadOnlyList<LineSeries> Series => _series;

    /// <summary>Adds a series with the next palette colour and, unless given, the next marker of circle,
    /// square, triangle, diamond; optionally with vertical error bars (distances below and above each Y).</summary>
    /// <exception cref="ArgumentException">See <see cref="LineSeries"/>.</exception>
    public LineSeries AddSeries(string name, IReadOnlyList<double> x, IReadOnlyList<double> y,
        MarkerShape? marker = null, LinePattern pattern = LinePattern.Solid, PlotColor? color = null,
        IReadOnlyList<double>? errorMinus = null, IReadOnlyList<double>? errorPlus = null, double lineWidth = 1.8, double markerSize = 7)
    {
        var series = new LineSeries(name, x, y, color ?? Palette.Get(_series.Count),
            marker ?? s_markers[_series.Count % s_markers.Length], pattern, lineWidth, markerSize, errorMinus, errorPlus);
        _series.Add(series);
        return series;
    }

    /// <summary>Adds a reference line.</summary>
    public ReferenceLine AddReferenceLine(ReferenceLine line) => AddLine(line);

    internal override bool HasData => _series.Any(s => Drawable(s).Any());

    /// <summary>The points of <paramref name="series"/> that the axes can show, in plot units, with their index.</summary>
    private IEnumerable<(int Index, double X, double Y)> Drawable(LineSeries series)
    {
        for (int i = 0; i < series.X.Count; i++)
        {
            double x = XAxis.ToPlot(series.X[i]), y = YAxis.ToPlot(series.Y[i]);
            if (!double.IsNaN(x) && !double.IsNaN(y))
            {
                yield return (i, x, y);
            }
        }
    }

    /// <summary>The error bars of <paramref name="series"/> in plot units: each drawable point's value and its
    /// ends (NaN for an end the y axis cannot show, e.g. ≤ 0 on a log axis).</summary>
    private IEnumerable<(double X, double Y, double Top, double Bottom)> Errors(LineSeries series)
    {
        if (series.ErrorMinus is not { } minus || series.ErrorPlus is not { } plus)
        {
            yield break;
        }

        foreach (var (i, x, y) in Drawable(series))
        {
            if (!double.IsNaN(minus[i]) && !double.IsNaN(plus[i]))
            {
                yield return (x, y, YAxis.ToPlot(series.Y[i] + plus[i]), YAxis.ToPlot(series.Y[i] - minus[i]));
            }
        }
    }

    private protected override void Draw(Plot plot, LegendPlacer legend)
    {
        var (xMin, xMax) = AxisRendering.Limits(XAxis, "x", _series.SelectMany(s => Drawable(s).Select(p => p.X)));
        var (yMin, yMax) = AxisRendering.Limits(YAxis, "y", _series.SelectMany(s =>
            Drawable(s).Select(p => p.Y).Concat(Errors(s).SelectMany(e => new[] { e.Top, e.Bottom }))));

        // Reference lines under the series, sampled across the plot: a straight line in data units may bend on log
        // axes. Values far off the plot are clamped so the stroke stays small; the frame clips the rest.
        foreach (ReferenceLine line in ReferenceLines)
        {
            const int Samples = 96;
            var points = new List<(double X, double Y)>();
            for (int k = 0; k <= Samples; k++)
            {
                double x = xMin + (xMax - xMin) * k / Samples;
                double y = YAxis.ToPlot(line.ValueAt(XAxis.FromPlot(x)));
                double far = 10 * (yMax - yMin);
                points.Add((x, double.IsNaN(y) ? double.NaN : Math.Clamp(y, yMin - far, yMax + far)));
            }

            AddRuns(plot, legend, points, line.Label, FigureStyle.Color(line.Color), 1.4f, FigureStyle.Pattern(line.Pattern), ScottPlot.MarkerShape.None, 0);
        }

        foreach (LineSeries s in _series)
        {
            ScottPlot.Color color = FigureStyle.Color(s.Color);
            var bars = Errors(s).ToArray();
            if (bars.Length > 0)
            {
                // A lower end the axis cannot show is drawn to the bottom of the plot.
                double[] top = [.. bars.Select(b => b.Top - b.Y)];
                double[] bottom = [.. bars.Select(b => b.Y - (double.IsNaN(b.Bottom) ? yMin : b.Bottom))];
                plot.Add.Plottable(new ScottPlot.Plottables.ErrorBar([.. bars.Select(b => b.X)], [.. bars.Select(b => b.Y)], null, null, top, bottom)
                {
                    Color = color,
                    LineWidth = (float)Math.Max(1, s.LineWidth * 0.75),
                    CapSize = (float)s.MarkerSize * 0.6f,
                });
                foreach (var b in bars)
                {
                    legend.AvoidSegment(b.X, double.IsNaN(b.Bottom) ? yMin : b.Bottom, b.X, b.Top);
                }
            }

            // Every point in order, with NaN where the axes cannot show one: the line breaks there.
            var points = Enumerable.Range(0, s.X.Count).Select(i => (XAxis.ToPlot(s.X[i]), YAxis.ToPlot(s.Y[i]))).ToList();
            bool line = s.Pattern != LinePattern.None;
            AddRuns(plot, legend, points, s.Name, color, line ? (float)s.LineWidth : 0, FigureStyle.Pattern(s.Pattern), FigureStyle.Marker(s.Marker), (float)s.MarkerSize);
        }

        plot.Axes.SetLimits(xMin, xMax, yMin, yMax);
        AxisRendering.Configure(plot.Axes.Bottom, XAxis, xMin, xMax);
        AxisRendering.Configure(plot.Axes.Left, YAxis, yMin, yMax);
    }

    /// <summary>One scatter per run of drawable points (a NaN coordinate ends a run), the first one named in the
    /// legend.</summary>
    private static void AddRuns(Plot plot, LegendPlacer legend, List<(double X, double Y)> points, string name, ScottPlot.Color color,
        float lineWidth, ScottPlot.LinePattern pattern, ScottPlot.MarkerShape marker, float markerSize)
    {
        bool named = false;
        int start = 0;
        while (start < points.Count)
        {
            int end = start;
            while (end < points.Count && !double.IsNaN(points[end].X) && !double.IsNaN(points[end].Y))
            {
                end++;
            }

            if (end > start)
            {
                var run = points.GetRange(start, end - start);
                var scatter = plot.Add.Scatter(run.Select(p => p.X).ToArray(), run.Select(p => p.Y).ToArray(), color);
                scatter.LineWidth = lineWidth;
                scatter.LinePattern = pattern;
                scatter.MarkerShape = marker;
                scatter.MarkerSize = markerSize;
                scatter.LegendText = named ? "" : name;
                named = true;
                for (int i = 0; i < run.Count; i++)
                {
                    legend.Avoid(run[i].X, run[i].Y);
                    if (i > 0 && lineWidth > 0)
                    {
                        legend.AvoidSegment(run[i - 1].X, run[i - 1].Y, run[i].X, run[i].Y);
                    }
                }
            }

            start = end + 1;
        }
    }
}
