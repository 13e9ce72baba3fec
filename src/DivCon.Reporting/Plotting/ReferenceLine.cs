namespace DivCon.Reporting.Plotting;

/// <summary>A straight guide line y = <see cref="Slope"/> · x + <see cref="Intercept"/> in data units, drawn
/// across the whole plot under the data (e.g. linear speedup y = x, or NTT = 1). On logarithmic axes it is drawn
/// through the same data values, so y = x stays a diagonal on log-log axes.</summary>
public sealed class ReferenceLine
{
    private static readonly PlotColor s_darkGrey = new(80, 80, 80);

    /// <summary>A guide line y = slope · x + intercept.</summary>
    /// <param name="label">Legend text (empty: not in the legend).</param>
    /// <param name="slope">Slope in data units (0 for a horizontal line).</param>
    /// <param name="intercept">Value at x = 0.</param>
    /// <param name="color">Line colour.</param>
    /// <param name="pattern">Stroke pattern; dashed by default.</param>
    /// <exception cref="ArgumentOutOfRangeException">Slope or intercept not finite.</exception>
    public ReferenceLine(string label, double slope, double intercept, PlotColor color, LinePattern pattern = LinePattern.Dashed)
    {
        ArgumentNullException.ThrowIfNull(label);
        if (!double.IsFinite(slope) || !double.IsFinite(intercept))
        {
            throw new ArgumentOutOfRangeException(nameof(slope), $"Reference line '{label}' needs a finite slope and intercept, got {slope} and {intercept}.");
        }

        Label = label;
        Slope = slope;
        Intercept = intercept;
        Color = color;
        Pattern = pattern;
    }

    /// <summary>A horizontal line at <paramref name="y"/>, dark grey unless <paramref name="color"/> is given.</summary>
    public static ReferenceLine Horizontal(double y, string label = "", PlotColor? color = null) => new(label, 0, y, color ?? s_darkGrey);

    /// <summary>The diagonal y = x (linear speedup), dark grey unless <paramref name="color"/> is given.</summary>
    public static ReferenceLine Identity(string label = "", PlotColor? color = null) => new(label, 1, 0, color ?? s_darkGrey);

    /// <summary>Legend text (empty: not in the legend).</summary>
    public string Label { get; }

    /// <summary>Slope in data units.</summary>
    public double Slope { get; }

    /// <summary>Value at x = 0.</summary>
    public double Intercept { get; }

    /// <summary>Line colour.</summary>
    public PlotColor Color { get; }

    /// <summary>Stroke pattern.</summary>
    public LinePattern Pattern { get; }

    /// <summary>The line's value at <paramref name="x"/>.</summary>
    public double ValueAt(double x) => Slope * x + Intercept;
}
