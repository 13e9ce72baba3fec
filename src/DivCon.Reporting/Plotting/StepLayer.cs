namespace DivCon.Reporting.Plotting;

/// <summary>One layer of a <see cref="StackedStepPlot"/>: a value held over each time interval (e.g. the cores
/// one program holds), stacked on the layers added before it. Values are kept exactly as given; NaN counts as 0
/// (nothing drawn for that interval).</summary>
/// <param name="Name">Legend text (empty: not in the legend).</param>
/// <param name="Color">Fill colour.</param>
/// <param name="Values">The value over interval i, [Times[i], Times[i + 1]), as given.</param>
public sealed record StepLayer(string Name, PlotColor Color, IReadOnlyList<double> Values);
