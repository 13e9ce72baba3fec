using System.Text.Json.Serialization;

namespace DivCon.Reporting.Plotting;

/// <summary>One layer of a <see cref="StackedStepPlot"/>: a value held over each time interval (e.g. the cores
/// one program holds), stacked on the layers added before it. Values are kept exactly as given; NaN counts as 0
/// (nothing drawn for that interval).</summary>
public sealed class StepLayer
{
    [JsonConstructor]
    internal StepLayer(string name, IReadOnlyList<double> values, PlotColor color)
    {
        Name = name;
        Values = values;
        Color = color;
    }

    /// <summary>Legend text (empty: not in the legend).</summary>
    public string Name { get; }

    /// <summary>Fill colour.</summary>
    public PlotColor Color { get; }

    /// <summary>The value over interval i, [Times[i], Times[i + 1]), as given.</summary>
    public IReadOnlyList<double> Values { get; }
}
