namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>What a figure asks of one axis: its label, scale and final value range, and, for a category axis,
/// the category names (category i sits at value i; the range is then [−0.5, n − 0.5]).</summary>
internal sealed record AxisSpec(string Label, AxisScale Scale, double Min, double Max, IReadOnlyList<string>? Categories = null,
    bool IntegerTicks = false)
{
    public static AxisSpec From(Axis axis, double min, double max) => new(axis.Label, axis.Scale, min, max, null, axis.IntegerTicks);

    public static AxisSpec ForCategories(string label, IReadOnlyList<string> categories) =>
        new(label, AxisScale.Linear, -0.5, categories.Count - 0.5, categories);
}
