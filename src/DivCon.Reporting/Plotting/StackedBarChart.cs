using System.Text.Json.Serialization;
using DivCon.Reporting.Plotting.Rendering;
using ScottPlot;

namespace DivCon.Reporting.Plotting;

/// <summary>One bar per category made of stacked segments, e.g. per recursion level the time spent in split,
/// execute and merge. Segment kinds are added bottom to top; the legend lists them top to bottom so it reads like
/// the bars. Values must be ≥ 0; a NaN value counts as 0 (no segment).</summary>
public sealed class StackedBarChart : CategoryChart
{
    private readonly List<BarSeries> _segments = [];

    /// <summary>A stacked bar chart with one bar per category.</summary>
    /// <exception cref="ArgumentException">No categories, or a null category name.</exception>
    public StackedBarChart(string title, IReadOnlyList<string> categories, string xLabel = "", string yLabel = "")
        : base(title, categories, xLabel, new Axis { Label = yLabel }, "stacked bar chart")
    {
    }

    [JsonConstructor]
    internal StackedBarChart(string title, string xLabel, Axis yAxis, IReadOnlyList<string> categories, IReadOnlyList<BarSeries> segments)
        : base(title, categories, xLabel, yAxis, "stacked bar chart")
    {
        foreach (BarSeries segment in segments)
        {
            AddSegment(segment.Name, segment.Values, segment.Color);
        }
    }

    /// <summary>Category names along the x axis, in order.</summary>
    public IReadOnlyList<string> Categories => CategoryNames;

    /// <summary>The segment kinds, bottom to top; each holds one value per category.</summary>
    public IReadOnlyList<BarSeries> Segments => _segments;

    /// <summary>None: a stacked bar chart draws no reference lines (and its JSON has none).</summary>
    [JsonIgnore]
    public override IReadOnlyList<ReferenceLine> ReferenceLines => base.ReferenceLines;

    /// <summary>Adds a segment kind on top of the previous ones, in the next palette colour unless given.</summary>
    /// <exception cref="ArgumentException">Not one value per category, or a negative or infinite value.</exception>
    public BarSeries AddSegment(string name, IReadOnlyList<double> values, PlotColor? color = null)
    {
        var segment = new BarSeries(name, values, color ?? Palette.Get(_segments.Count));
        if (segment.Values.Count != CategoryNames.Length)
        {
            throw new ArgumentException($"Segment '{name}' has {segment.Values.Count} values but the chart has {CategoryNames.Length} categories; give one per category.", nameof(values));
        }

        if (segment.Values.Any(v => v < 0))
        {
            throw new ArgumentException($"Segment '{name}' has a negative value; stacked values must be ≥ 0 (NaN counts as 0).", nameof(values));
        }

        _segments.Add(segment);
        return segment;
    }

    internal override bool HasData => _segments.Any(s => s.Values.Any(v => v > 0));

    private double Total(int category) => _segments.Sum(s => double.IsNaN(s.Values[category]) ? 0 : s.Values[category]);

    private protected override void Draw(Plot plot, LegendPlacer legend)
    {
        var (yMin, yMax) = AxisRendering.ZeroBasedLimits(YAxis, Enumerable.Range(0, CategoryNames.Length).Select(Total));

        // Top segment first, so the legend lists the segments as the bars show them.
        for (int j = _segments.Count - 1; j >= 0; j--)
        {
            BarSeries segment = _segments[j];
            var bars = new List<Bar>();
            for (int i = 0; i < CategoryNames.Length; i++)
            {
                double below = _segments.Take(j).Sum(s => s.Values[i] > 0 ? s.Values[i] : 0);
                double v = segment.Values[i];
                if (v > 0)
                {
                    bars.Add(new Bar { Position = i, Size = 0.6, ValueBase = below, Value = below + v, FillColor = FigureStyle.Color(segment.Color), LineWidth = 0 });
                    legend.AvoidRect(i - 0.3, below, i + 0.3, below + v);
                }
            }

            plot.Add.Bars(bars).LegendText = segment.Name;
        }

        DrawAxes(plot, CategoryNames, yMin, yMax);
    }
}
