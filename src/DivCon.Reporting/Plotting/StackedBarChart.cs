using System.Text.Json;
using DivCon.Reporting.Plotting.Rendering;

namespace DivCon.Reporting.Plotting;

/// <summary>One bar per category made of stacked segments, e.g. per recursion level the time spent in split,
/// execute and merge. Segment kinds are added bottom to top; the legend lists them top to bottom so it reads like
/// the bars. Values must be ≥ 0; a NaN value counts as 0 (no segment).</summary>
public sealed class StackedBarChart : Figure
{
    private readonly string[] _categories;
    private readonly List<BarSeries> _segments = [];

    /// <summary>A stacked bar chart with one bar per category.</summary>
    /// <exception cref="ArgumentException">No categories, or a null category name.</exception>
    public StackedBarChart(string title, IReadOnlyList<string> categories, string xLabel = "", string yLabel = "")
        : base(title)
    {
        ArgumentNullException.ThrowIfNull(categories);
        ArgumentNullException.ThrowIfNull(xLabel);
        if (categories.Count == 0 || categories.Any(c => c is null))
        {
            throw new ArgumentException("A stacked bar chart needs at least one category, and names may be empty but not null.", nameof(categories));
        }

        _categories = [.. categories];
        XLabel = xLabel;
        YAxis.Label = yLabel;
    }

    /// <summary>Category names along the x axis, in order.</summary>
    public IReadOnlyList<string> Categories => _categories;

    /// <summary>Text under the x axis (may be empty).</summary>
    public string XLabel { get; set; }

    /// <summary>The value axis (linear; fixed limits allowed).</summary>
    public Axis YAxis { get; } = new();

    /// <summary>The segment kinds, bottom to top; each holds one value per category.</summary>
    public IReadOnlyList<BarSeries> Segments => _segments;

    /// <summary>Adds a segment kind on top of the previous ones, in the next palette colour unless given.</summary>
    /// <exception cref="ArgumentException">Not one value per category, or a negative or infinite value.</exception>
    public BarSeries AddSegment(string name, IReadOnlyList<double> values, PlotColor? color = null)
    {
        var segment = new BarSeries(name, values, color ?? Palette.Get(_segments.Count));
        if (segment.Values.Count != _categories.Length)
        {
            throw new ArgumentException($"Segment '{name}' has {segment.Values.Count} values but the chart has {_categories.Length} categories; give one per category.", nameof(values));
        }

        if (segment.Values.Any(v => v < 0))
        {
            throw new ArgumentException($"Segment '{name}' has a negative value; stacked values must be ≥ 0 (NaN counts as 0).", nameof(values));
        }

        _segments.Add(segment);
        return segment;
    }

    private protected override string Kind => "stackedBar";

    private protected override void WriteModel(Utf8JsonWriter writer)
    {
        writer.WriteString("xLabel", XLabel);
        WriteAxis(writer, "yAxis", YAxis);
        WriteStrings(writer, "categories", _categories);
        WriteBarSeries(writer, "segments", _segments);
    }

    internal override bool HasData => _segments.Any(s => s.Values.Any(v => v > 0));

    internal override bool VerticalGrid => false;

    private double Total(int category) => _segments.Sum(s => double.IsNaN(s.Values[category]) ? 0 : s.Values[category]);

    internal override (AxisSpec X, AxisSpec Y) BuildAxes()
    {
        var (min, max) = ZeroBasedRange(YAxis, Enumerable.Range(0, _categories.Length).Select(Total));
        return (AxisSpec.ForCategories(XLabel, _categories), AxisSpec.From(YAxis, min, max));
    }

    internal override IReadOnlyList<LegendEntry> LegendEntries() =>
        [.. Enumerable.Reverse(_segments).Select(s => new LegendEntry(s.Name, s.Color, true))];

    private IEnumerable<(BarSeries Segment, RectD Rect)> Pieces(PlotLayout layout)
    {
        for (int i = 0; i < _categories.Length; i++)
        {
            double x0 = layout.X.ToPixel(i - 0.3), x1 = layout.X.ToPixel(i + 0.3);
            double below = 0;
            foreach (BarSeries segment in _segments)
            {
                double v = segment.Values[i];
                if (!(v > 0))
                {
                    continue;
                }

                // Whole-pixel edges so neighbouring segments meet without a seam.
                double y0 = Math.Round(layout.Y.ToPixel(below)), y1 = Math.Round(layout.Y.ToPixel(below + v));
                yield return (segment, RectD.FromCorners(x0, y0, x1, y1));
                below += v;
            }
        }
    }

    internal override void DrawData(Canvas canvas, PlotLayout layout)
    {
        foreach (var (segment, rect) in Pieces(layout))
        {
            canvas.FillRect(rect.X0, rect.Y0, rect.X1, rect.Y1, segment.Color);
        }
    }

    internal override IEnumerable<RectD> Obstacles(PlotLayout layout) => Pieces(layout).Select(p => p.Rect);
}
