using System.Text.Json.Serialization;
using DivCon.Reporting.Plotting.Rendering;
using ScottPlot;

namespace DivCon.Reporting.Plotting;

/// <summary>Stacked layers of piecewise-constant values over time, e.g. the cores each program holds: layer k's
/// value over [Times[i], Times[i + 1]) is stacked on the layers added before it. Values must be ≥ 0; NaN counts
/// as 0. Horizontal reference lines (e.g. the machine's core count) can be added.</summary>
public sealed class StackedStepPlot : Figure
{
    private readonly double[] _times;
    private readonly List<StepLayer> _layers = [];

    /// <summary>A plot over the intervals between consecutive <paramref name="times"/>.</summary>
    /// <exception cref="ArgumentException">Fewer than two times, a time that is not finite, or times that
    /// decrease.</exception>
    public StackedStepPlot(string title, IReadOnlyList<double> times, string xLabel = "", string yLabel = "")
        : base(title)
    {
        ArgumentNullException.ThrowIfNull(times);
        if (times.Count < 2)
        {
            throw new ArgumentException($"A step plot needs at least two times (one interval), got {times.Count}.", nameof(times));
        }

        for (int i = 0; i < times.Count; i++)
        {
            if (!double.IsFinite(times[i]) || (i > 0 && times[i] < times[i - 1]))
            {
                throw new ArgumentException($"Times must be finite and non-decreasing; time {i} is {times[i]}.", nameof(times));
            }
        }

        if (!(times[^1] > times[0]))
        {
            throw new ArgumentException($"Times must span a positive duration, got [{times[0]}, {times[^1]}].", nameof(times));
        }

        _times = [.. times];
        XAxis.Label = xLabel;
        YAxis.Label = yLabel;
    }

    [JsonConstructor]
    internal StackedStepPlot(string title, Axis xAxis, Axis yAxis, IReadOnlyList<double> times, IReadOnlyList<StepLayer> layers,
        IReadOnlyList<ReferenceLine> referenceLines)
        : this(title, times)
    {
        (XAxis, YAxis) = (xAxis, yAxis);
        foreach (StepLayer layer in layers)
        {
            AddLayer(layer.Name, layer.Values, layer.Color);
        }

        AddLines(referenceLines);
    }

    /// <summary>The time axis (linear).</summary>
    public Axis XAxis { get; } = new();

    /// <summary>The value axis (linear, from zero).</summary>
    public Axis YAxis { get; } = new();

    /// <summary>Interval boundaries, as given: interval i is [Times[i], Times[i + 1]).</summary>
    public IReadOnlyList<double> Times => _times;

    /// <summary>The layers, bottom to top.</summary>
    public IReadOnlyList<StepLayer> Layers => _layers;

    /// <summary>Adds a layer on top of the previous ones, in the next palette colour unless given.</summary>
    /// <exception cref="ArgumentException">Not one value per interval (Times.Count − 1), or a value that is
    /// negative or infinite.</exception>
    public StepLayer AddLayer(string name, IReadOnlyList<double> values, PlotColor? color = null)
    {
        ArgumentNullException.ThrowIfNull(name);
        ArgumentNullException.ThrowIfNull(values);
        if (values.Count != _times.Length - 1)
        {
            throw new ArgumentException($"Layer '{name}' has {values.Count} values but there are {_times.Length - 1} intervals; give one per interval.", nameof(values));
        }

        if (values.Any(v => v < 0 || double.IsInfinity(v)))
        {
            throw new ArgumentException($"Layer '{name}' has a negative or infinite value; values must be ≥ 0 (NaN counts as 0).", nameof(values));
        }

        var layer = new StepLayer(name, color ?? Palette.Get(_layers.Count), [.. values]);
        _layers.Add(layer);
        return layer;
    }

    /// <summary>Adds a horizontal line at <paramref name="y"/> (e.g. the number of cores).</summary>
    public ReferenceLine AddHorizontalLine(double y, string label = "", PlotColor? color = null) => AddLine(ReferenceLine.Horizontal(y, label, color));

    internal override bool HasData => _layers.Any(l => l.Values.Any(v => v > 0));

    private static double Held(double v) => v > 0 ? v : 0;

    private protected override void Draw(Plot plot, LegendPlacer legend)
    {
        if (XAxis.Scale != AxisScale.Linear)
        {
            throw new InvalidOperationException("The time axis of a step plot must be linear.");
        }

        // Limits are set in pairs (Axis.SetLimits) and the times span a positive duration, so xMin < xMax.
        var (xMin, xMax) = (XAxis.Min ?? _times[0], XAxis.Max ?? _times[^1]);
        int n = _times.Length - 1;
        var below = new double[n];
        var top = new double[n];
        var polygons = new List<(StepLayer Layer, Coordinates[] Outline)>();
        foreach (StepLayer layer in _layers)
        {
            // The layer's outline: its top edge left to right, then the top of the layers under it right to left.
            var outline = new List<Coordinates>(4 * n);
            for (int i = 0; i < n; i++)
            {
                top[i] = below[i] + Held(layer.Values[i]);
                outline.Add(new(_times[i], top[i]));
                outline.Add(new(_times[i + 1], top[i]));
            }

            for (int i = n - 1; i >= 0; i--)
            {
                outline.Add(new(_times[i + 1], below[i]));
                outline.Add(new(_times[i], below[i]));
            }

            polygons.Add((layer, [.. outline]));
            (below, top) = (top, below);
        }

        // Top layer first, so the legend lists the layers as the plot stacks them.
        foreach (var (layer, outline) in Enumerable.Reverse(polygons))
        {
            var polygon = plot.Add.Polygon(outline);
            polygon.FillColor = FigureStyle.Color(layer.Color);
            polygon.LineWidth = 0;
            // Layers meet on shared edges: anti-aliasing both would let the background show through as seams.
            polygon.FillStyle.AntiAlias = false;
            polygon.LegendText = layer.Name;
        }

        // What the legend must avoid: the stack's height at a few hundred times.
        for (int k = 0, i = 0; k <= 256; k++)
        {
            double t = xMin + (xMax - xMin) * k / 256;
            while (i < n - 1 && _times[i + 1] <= t)
            {
                i++;
            }

            legend.AvoidSegment(t, 0, t, below[i]);
        }

        FigureStyle.HorizontalLines(plot, ReferenceLines, legend, xMin, xMax);
        var (yMin, yMax) = AxisRendering.ZeroBasedLimits(YAxis, below.Concat(ReferenceLines.Select(r => r.Intercept)));
        plot.Axes.SetLimits(xMin, xMax, yMin, yMax);
        plot.Grid.XAxisStyle.IsVisible = false;
        AxisRendering.Configure(plot.Axes.Bottom, XAxis, xMin, xMax);
        AxisRendering.Configure(plot.Axes.Left, YAxis, yMin, yMax);
    }
}
