using System.Text.Json.Serialization;
using DivCon.Reporting.Plotting.Rendering;
using ScottPlot;

namespace DivCon.Reporting.Plotting;

/// <summary>Grouped bars with optional (asymmetric) error bars: one group per entry of <see cref="Groups"/>
/// (e.g. programs), one bar per series in each group (e.g. schemes), and horizontal reference lines (e.g.
/// NTT = 1). With a single group the bars are labelled with their series names under the axis instead of a
/// legend (e.g. ANTT per scheme). Bars grow from zero on a linear value axis; a NaN value draws no bar and a NaN
/// error draws no error bar.</summary>
public sealed class BarChart : CategoryChart
{
    private static readonly PlotColor s_errorColor = new(25, 25, 25);

    private readonly List<BarSeries> _series = [];

    /// <summary>A bar chart with the given groups along the x axis.</summary>
    /// <exception cref="ArgumentException">No groups, or a null group name.</exception>
    public BarChart(string title, IReadOnlyList<string> groups, string xLabel = "", string yLabel = "")
        : base(title, groups, xLabel, new Axis { Label = yLabel }, "bar chart")
    {
    }

    [JsonConstructor]
    internal BarChart(string title, string xLabel, Axis yAxis, IReadOnlyList<string> groups, IReadOnlyList<BarSeries> series,
        IReadOnlyList<ReferenceLine> referenceLines)
        : base(title, groups, xLabel, yAxis, "bar chart")
    {
        foreach (BarSeries s in series)
        {
            AddSeries(s.Name, s.Values, s.ErrorMinus, s.ErrorPlus, s.Color);
        }

        AddLines(referenceLines);
    }

    /// <summary>Group names along the x axis, in order.</summary>
    public IReadOnlyList<string> Groups => CategoryNames;

    /// <summary>The series, one bar per group each, in the order added (left to right within a group).</summary>
    public IReadOnlyList<BarSeries> Series => _series;

    /// <summary>Adds a series, in the next palette colour unless given, with error bars (both lists) or none: each
    /// reaches <paramref name="errorMinus"/>[i] below and <paramref name="errorPlus"/>[i] above its value (e.g. a
    /// confidence interval [lo, hi] around a mean m gives m − lo and hi − m; equal lists for symmetric errors).</summary>
    /// <exception cref="ArgumentException">Not one value per group; see also <see cref="BarSeries"/>.</exception>
    public BarSeries AddSeries(string name, IReadOnlyList<double> values, IReadOnlyList<double>? errorMinus = null,
        IReadOnlyList<double>? errorPlus = null, PlotColor? color = null)
    {
        var series = new BarSeries(name, values, color ?? Palette.Get(_series.Count), errorMinus, errorPlus);
        if (series.Values.Count != CategoryNames.Length)
        {
            throw new ArgumentException($"Bar series '{series.Name}' has {series.Values.Count} values but the chart has {CategoryNames.Length} groups; give one per group.", nameof(values));
        }

        _series.Add(series);
        return series;
    }

    /// <summary>Adds a horizontal line at <paramref name="y"/> (e.g. NTT = 1).</summary>
    public ReferenceLine AddHorizontalLine(double y, string label = "", PlotColor? color = null) => AddLine(ReferenceLine.Horizontal(y, label, color));

    private bool SingleGroup => CategoryNames.Length == 1;

    internal override bool HasData => _series.Any(s => s.Values.Any(double.IsFinite));

    /// <summary>The x extent of bar <paramref name="seriesIndex"/> in group <paramref name="group"/>, in category
    /// units (group i is centred on i; the bars fill 80 % of it, each inset by 6 % of its slot). With a single group
    /// each series is a category of its own.</summary>
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

    private protected override void Draw(Plot plot, LegendPlacer legend)
    {
        IReadOnlyList<string> categories = SingleGroup ? [.. _series.Select(s => s.Name)] : CategoryNames;
        var extents = _series.SelectMany(s => s.Values.Select((v, i) => (v, i)).SelectMany(p => !s.HasErrors ? [p.v]
            : new[] { p.v, p.v - Finite(s.ErrorMinus![p.i]), p.v + Finite(s.ErrorPlus![p.i]) }));
        var (yMin, yMax) = AxisRendering.ZeroBasedLimits(YAxis, extents.Concat(ReferenceLines.Select(r => r.Intercept)));
        double xMin = -0.5, xMax = categories.Count - 0.5;

        var errors = new List<(double X, double Y, double Plus, double Minus)>();
        for (int j = 0; j < _series.Count; j++)
        {
            BarSeries series = _series[j];
            var bars = new List<Bar>();
            for (int i = 0; i < CategoryNames.Length; i++)
            {
                double v = series.Values[i];
                if (double.IsNaN(v))
                {
                    continue;
                }

                (double left, double right) = BarSpan(i, j);
                bars.Add(new Bar { Position = (left + right) / 2, Size = right - left, Value = v, ValueBase = 0, FillColor = FigureStyle.Color(series.Color), LineWidth = 0 });
                legend.AvoidRect(left, 0, right, v);
                if (series.HasErrors && !double.IsNaN(series.ErrorMinus![i]) && !double.IsNaN(series.ErrorPlus![i]))
                {
                    errors.Add(((left + right) / 2, v, series.ErrorPlus[i], series.ErrorMinus[i]));
                    legend.AvoidRect(left, v - series.ErrorMinus[i], right, v + series.ErrorPlus[i]);
                }
            }

            var barPlot = plot.Add.Bars(bars);
            barPlot.LegendText = SingleGroup ? "" : series.Name;
        }

        FigureStyle.HorizontalLines(plot, ReferenceLines, legend, xMin, xMax);

        if (errors.Count > 0)
        {
            plot.Add.Plottable(new ScottPlot.Plottables.ErrorBar([.. errors.Select(e => e.X)], [.. errors.Select(e => e.Y)], null, null,
                [.. errors.Select(e => e.Plus)], [.. errors.Select(e => e.Minus)])
            {
                Color = FigureStyle.Color(s_errorColor),
                LineWidth = 1.3f,
                CapSize = 5,
            });
        }

        DrawAxes(plot, categories, yMin, yMax);
    }

    private static double Finite(double v) => double.IsNaN(v) ? 0 : v;
}
