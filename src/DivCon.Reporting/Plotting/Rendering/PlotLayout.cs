namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>Where everything of one rendered figure went: the plot area, the axis maps and ticks, the legend
/// box, and the pixel sizes used. Tests read it to find where data values land.</summary>
internal sealed class PlotLayout
{
    public required double Scale { get; init; }

    public required RectD PlotArea { get; init; }

    public required AxisMap X { get; init; }

    public required AxisMap Y { get; init; }

    public required IReadOnlyList<Tick> XTicks { get; init; }

    public required IReadOnlyList<Tick> YTicks { get; init; }

    public IReadOnlyList<double> XMinorTicks { get; init; } = [];

    public IReadOnlyList<double> YMinorTicks { get; init; } = [];

    public required double TickFontPx { get; init; }

    public RectD? Legend { get; init; }

    public bool LegendOutside { get; init; }
}
