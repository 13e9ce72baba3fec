namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>One legend row: a filled box (bars, areas) or a line sample with its marker.</summary>
internal sealed record LegendEntry(string Name, PlotColor Color, bool Box, MarkerShape Marker = MarkerShape.None,
    LinePattern Pattern = LinePattern.Solid, double LineWidth = 1.8, double MarkerSize = 7);
