using System.Text.Json.Serialization;

namespace DivCon.Reporting.Plotting;

/// <summary>One axis of a figure: its label, its scale and optional fixed limits (without limits the range
/// comes from the data, padded a little).</summary>
public sealed class Axis
{
    /// <summary>An axis with an empty label, a linear scale and its range from the data.</summary>
    public Axis()
    {
    }

    // An axis read back from JSON: limits are taken only as a pair, through SetLimits' checks.
    [JsonConstructor]
    internal Axis(string label, AxisScale scale, bool integerTicks, double? min, double? max)
    {
        (Label, Scale, IntegerTicks) = (label, scale, integerTicks);
        if (min is { } lo && max is { } hi)
        {
            SetLimits(lo, hi);
        }
    }

    /// <summary>The axis title, drawn under the x axis or rotated beside the y axis (may be empty).</summary>
    public string Label
    {
        get;
        set => field = value ?? throw new ArgumentNullException(nameof(value), "An axis label may be empty but not null.");
    } = "";

    /// <summary>How values map to positions; <see cref="AxisScale.Linear"/> by default.</summary>
    public AxisScale Scale { get; set; } = AxisScale.Linear;

    /// <summary>Whether linear tick steps must be whole numbers (e.g. core counts: 1, 2 rather than 1.0, 1.2, …,
    /// 2.0) when the range holds at least two whole numbers. Off by default.</summary>
    public bool IntegerTicks { get; set; }

    /// <summary>The fixed lower limit, or null to take it from the data.</summary>
    public double? Min { get; private set; }

    /// <summary>The fixed upper limit, or null to take it from the data.</summary>
    public double? Max { get; private set; }

    /// <summary>Fixes the displayed range to [<paramref name="min"/>, <paramref name="max"/>]; data outside it
    /// is clipped at the plot border.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A limit is not finite, or <paramref name="min"/> is not
    /// below <paramref name="max"/>.</exception>
    public void SetLimits(double min, double max)
    {
        if (!double.IsFinite(min) || !double.IsFinite(max) || !(min < max))
        {
            throw new ArgumentOutOfRangeException(nameof(min), $"Axis limits must be finite with min < max, got [{min}, {max}].");
        }

        Min = min;
        Max = max;
    }
}
