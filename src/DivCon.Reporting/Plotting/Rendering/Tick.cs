namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>One axis tick: the data value it marks and its label.</summary>
internal readonly record struct Tick(double Value, string Label);
