using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>A figure and the file stem it is written under (<c>{Name}.png</c>, <c>{Name}.plot.json</c>).</summary>
public sealed record NamedFigure(string Name, Figure Figure);
