using System.Text.Json.Serialization;
using DivCon.Reporting.Plotting.Rendering;
using ScottPlot;

namespace DivCon.Reporting.Plotting;

/// <summary>A chart with named categories along the x axis (category i centred on i) and a linear value axis: what
/// <see cref="BarChart"/> and <see cref="StackedBarChart"/> share.</summary>
public abstract class CategoryChart : Figure
{
    private protected CategoryChart(string title, IReadOnlyList<string> categories, string xLabel, Axis yAxis, string what)
        : base(title)
    {
        ArgumentNullException.ThrowIfNull(categories);
        ArgumentNullException.ThrowIfNull(xLabel);
        if (categories.Count == 0 || categories.Any(c => c is null))
        {
            throw new ArgumentException($"A {what} needs at least one category, and names may be empty but not null.", nameof(categories));
        }

        CategoryNames = [.. categories];
        XLabel = xLabel;
        YAxis = yAxis;
    }

    /// <summary>Text under the x axis (may be empty).</summary>
    [JsonPropertyOrder(-2)]
    public string XLabel { get; set; }

    /// <summary>The value axis (linear; fixed limits allowed).</summary>
    [JsonPropertyOrder(-1)]
    public Axis YAxis { get; }

    private protected string[] CategoryNames { get; }

    /// <summary>The axes of a chart whose x axis shows <paramref name="labels"/> and whose values span [<paramref name="yMin"/>, <paramref name="yMax"/>].</summary>
    private protected void DrawAxes(Plot plot, IReadOnlyList<string> labels, double yMin, double yMax)
    {
        plot.Axes.SetLimits(-0.5, labels.Count - 0.5, yMin, yMax);
        FigureStyle.Categories(plot, labels, DefaultWidth);
        plot.Axes.Bottom.Label.Text = XLabel;
        AxisRendering.Configure(plot.Axes.Left, YAxis, yMin, yMax);
    }
}
