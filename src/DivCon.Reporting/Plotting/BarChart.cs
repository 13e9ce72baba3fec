using System.Text.Json;
using DivCon.Reporting.Plotting.Rendering;

namespace DivCon.Reporting.Plotting;

/// <summary>Grouped bars with optional (asymmetric) error bars: one group per entry of <see cref="Groups"/>
/// (e.g. programs), one bar per series in each group (e.g. schemes), and horizontal reference lines (e.g.
/// NTT = 1). With a single group the bars are labelled with their series names under the axis instead of a
/// legend (e.g. ANTT per scheme). Bars grow from zero on a linear value axis; a NaN value draws no bar and a NaN
/// error draws no error bar.</summary>
public sealed class BarChart : Figure
{
    private static readonly PlotColor s_errorColor = new(25, 25, 25);

    private readonly string[] _groups;
    private readonly List<BarSeries> _series = [];
    private readonly List<ReferenceLine> _referenceLines = [];

    /// <summary>A bar chart with the given groups along the x axis.</summary>
    /// <exception cref="ArgumentException">No groups, or a null group name.</exception>
    public BarChart(string title, IReadOnlyList<string> groups, string xLabel = "", string yLabel = "")
        : base(title)
    {
        ArgumentNullException.ThrowIfNull(groups);
        ArgumentNullException.ThrowIfNull(xLabel);
        if (groups.Count == 0 || groups.Any(g => g is null))
        {
            throw new ArgumentException("A bar chart needs at least one group, and group names may be empty but not null.", nameof(groups));
        }

        _groups = [.. groups];
        XLabel = xLabel;
        YAxis.Label = yLabel;
    }

    /// <summary>Group names along the x axis, in order.</summary>
    public IReadOnlyList<string> Groups => _groups;

    /// <summary>Text under the x axis (may be empty).</summary>
    public string XLabel { get; set; }

    /// <summary>The value axis (linear; fixed limits allowed).</summary>
    public Axis YAxis { get; } = new();

    /// <summary>The series, one bar per group each, in the order added (left to right within a group).</summary>
    public IReadOnlyList<BarSeries> Series => _series;

    /// <summary>Horizontal reference lines.</summary>
    public IReadOnlyList<ReferenceLine> ReferenceLines => _referenceLines;

    /// <summary>Adds a series with symmetric error bars (<paramref name="error"/>[i] either way) or none, in the
    /// next palette colour unless given.</summary>
    /// <exception cref="ArgumentException">Not one value per group; see also <see cref="BarSeries"/>.</exception>
    public BarSeries AddSeries(string name, IReadOnlyList<double> values, IReadOnlyList<double>? error = null, PlotColor? color = null) =>
        AddSeries(name, values, error, error, color);

    /// <summary>Adds a series with asymmetric error bars: each reaches <paramref name="errorMinus"/>[i] below and
    /// <paramref name="errorPlus"/>[i] above its value (e.g. a confidence interval [lo, hi] around a mean m gives
    /// m − lo and hi − m).</summary>
    /// <exception cref="ArgumentException">Not one value per group; see also <see cref="BarSeries"/>.</exception>
    public BarSeries AddSeries(string name, IReadOnlyList<double> values, IReadOnlyList<double>? errorMinus,
        IReadOnlyList<double>? errorPlus, PlotColor? color = null) =>
        Add(new BarSeries(name, values, color ?? Palette.Get(_series.Count), errorMinus, errorPlus));

    /// <summary>Adds a series built by the caller.</summary>
    /// <exception cref="ArgumentException">Not one value per group.</exception>
    public BarSeries Add(BarSeries series)
    {
        ArgumentNullException.ThrowIfNull(series);
        if (series.Values.Count != _groups.Length)
        {
            throw new ArgumentException($"Bar series '{series.Name}' has {series.Values.Count} values but the chart has {_groups.Length} groups; give one per group.", nameof(series));
        }

        _series.Add(series);
        return series;
    }

    /// <summary>Adds a horizontal line at <paramref name="y"/> (e.g. NTT = 1).</summary>
    public ReferenceLine AddHorizontalLine(double y, string label = "", PlotColor? color = null)
    {
        var line = ReferenceLine.Horizontal(y, label, color);
        _referenceLines.Add(line);
        return line;
    }

    private protected override string Kind => "bar";

    private protected override void WriteModel(Utf8JsonWriter writer)
    {
        writer.WriteString("xLabel", XLabel);
        WriteAxis(writer, "yAxis", YAxis);
        WriteStrings(writer, "groups", _groups);
        WriteBarSeries(writer, "series", _series);
        WriteReferenceLines(writer, _referenceLines);
    }

    private bool SingleGroup => _groups.Length == 1;

    internal override bool HasData => _series.Any(s => s.Values.Any(double.IsFinite));

    internal override bool VerticalGrid => false;

    internal override (AxisSpec X, AxisSpec Y) BuildAxes()
    {
        var extents = new List<double>();
        foreach (BarSeries series in _series)
        {
            for (int i = 0; i < series.Values.Count; i++)
            {
                double v = series.Values[i];
                if (double.IsNaN(v))
                {
                    continue;
                }

                extents.Add(v);
                if (series.HasErrors)
                {
                    extents.Add(v - Finite(series.ErrorMinus![i]));
                    extents.Add(v + Finite(series.ErrorPlus![i]));
                }
            }
        }

        extents.AddRange(_referenceLines.Select(r => r.Intercept));
        var (min, max) = ZeroBasedRange(YAxis, extents);
        IReadOnlyList<string> categories = SingleGroup ? [.. _series.Select(s => s.Name)] : _groups;
        return (AxisSpec.ForCategories(XLabel, categories), AxisSpec.From(YAxis, min, max));
    }

    private static double Finite(double v) => double.IsNaN(v) ? 0 : v;

    internal override IReadOnlyList<LegendEntry> LegendEntries() =>
    [
        .. SingleGroup ? [] : _series.Select(s => new LegendEntry(s.Name, s.Color, true)),
        .. _referenceLines.Select(r => new LegendEntry(r.Label, r.Color, false, MarkerShape.None, r.Pattern, 1.4)),
    ];

    /// <summary>The x extent of bar <paramref name="seriesIndex"/> in group <paramref name="group"/>, in category
    /// units (group i is centred on i; the bars fill 80 % of it, each inset by 6 % of its slot).</summary>
    internal (double Left, double Right) BarSpan(int group, int seriesIndex)
    {
        if (SingleGroup)
        {
            return (seriesIndex - 0.3, seriesIndex + 0.3);
        }

        double slot = 0.8 / _series.Count;
        double left = group - 0.4 + seriesIndex * slot;
        return (left + 0.06 * slot, left + 0.94 * slot);
    }

    /// <summary>Every drawable bar: its pixel rectangle, and its error bar's pixel ends (NaN when none).</summary>
    private IEnumerable<(BarSeries Series, RectD Bar, double ErrorTop, double ErrorBottom)> Bars(PlotLayout layout)
    {
        for (int j = 0; j < _series.Count; j++)
        {
            BarSeries series = _series[j];
            for (int i = 0; i < _groups.Length; i++)
            {
                double v = series.Values[i];
                if (double.IsNaN(v))
                {
                    continue;
                }

                (double left, double right) = BarSpan(i, j);
                double x0 = layout.X.ToPixel(left), x1 = layout.X.ToPixel(right);
                double y0 = layout.Y.ToPixel(0), y1 = layout.Y.ToPixel(v);
                double top = double.NaN, bottom = double.NaN;
                if (series.HasErrors && !double.IsNaN(series.ErrorMinus![i]) && !double.IsNaN(series.ErrorPlus![i]))
                {
                    top = layout.Y.ToPixel(v + series.ErrorPlus[i]);
                    bottom = layout.Y.ToPixel(v - series.ErrorMinus[i]);
                }

                yield return (series, RectD.FromCorners(x0, y0, x1, y1), top, bottom);
            }
        }
    }

    internal override void DrawData(Canvas canvas, PlotLayout layout)
    {
        double s = layout.Scale;
        foreach (var (series, bar, _, _) in Bars(layout))
        {
            canvas.FillRect(bar.X0, bar.Y0, bar.X1, bar.Y1, series.Color);
        }

        foreach (ReferenceLine line in _referenceLines)
        {
            double y = Canvas.Crisp(layout.Y.ToPixel(line.Intercept));
            canvas.StrokePolyline([new(layout.PlotArea.X0, y), new(layout.PlotArea.X1, y)], 1.4 * s, line.Color, line.Pattern);
        }

        double width = 1.3 * s;
        foreach (var (_, bar, top, bottom) in Bars(layout))
        {
            if (double.IsNaN(top))
            {
                continue;
            }

            double x = (bar.X0 + bar.X1) / 2;
            double cap = Math.Min(bar.Width * 0.5, 12 * s) / 2;
            canvas.StrokeSegments(
            [
                new(new(x, top), new(x, bottom)),
                new(new(x - cap, top), new(x + cap, top)),
                new(new(x - cap, bottom), new(x + cap, bottom)),
            ], width, s_errorColor);
        }
    }

    internal override IEnumerable<RectD> Obstacles(PlotLayout layout)
    {
        foreach (var (_, bar, top, bottom) in Bars(layout))
        {
            yield return bar;
            if (!double.IsNaN(top))
            {
                yield return RectD.FromCorners(bar.X0, top, bar.X1, bottom);
            }
        }

        foreach (ReferenceLine line in _referenceLines)
        {
            double y = layout.Y.ToPixel(line.Intercept);
            yield return new RectD(layout.PlotArea.X0, y - 1, layout.PlotArea.X1, y + 1);
        }
    }
}
