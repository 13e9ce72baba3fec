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

    /// <summary>Rows of x tick labels: 2 when category labels are too long for one row even at the smallest font;
    /// then labels alternate between the rows (even indices on the first).</summary>
    public int XTickRows { get; init; } = 1;

    /// <summary>Height of one row of x tick labels, in pixels.</summary>
    public double XTickRowPx { get; init; }

    public RectD? Legend { get; init; }

    public bool LegendOutside { get; init; }
}
