using System.Text.Json.Serialization;

namespace DivCon.Reporting.Plotting;

/// <summary>One series of a <see cref="BarChart"/> (one bar per group) or one segment kind of a
/// <see cref="StackedBarChart"/> (one piece per bar). Values are kept exactly as given; a NaN value draws no bar.
/// Error bars extend <see cref="ErrorMinus"/>[i] below and <see cref="ErrorPlus"/>[i] above the value (distances,
/// not bounds; NaN = no error bar at that bar).</summary>
public sealed class BarSeries
{
    /// <summary>A series of bars.</summary>
    /// <param name="name">Legend text (empty: not in the legend).</param>
    /// <param name="values">Bar heights (copied); finite or NaN.</param>
    /// <param name="color">Fill colour.</param>
    /// <param name="errorMinus">Distance of each error bar's lower end below the value (≥ 0 or NaN), or null.</param>
    /// <param name="errorPlus">Distance of each error bar's upper end above the value (≥ 0 or NaN), or null.</param>
    /// <exception cref="ArgumentException">No values; an infinite value; only one of the error lists given; error
    /// lists of another length; a negative or infinite error.</exception>
    public BarSeries(string name, IReadOnlyList<double> values, PlotColor color,
        IReadOnlyList<double>? errorMinus = null, IReadOnlyList<double>? errorPlus = null)
    {
        ArgumentNullException.ThrowIfNull(name);
        ArgumentNullException.ThrowIfNull(values);
        if (values.Count == 0)
        {
            throw new ArgumentException($"Bar series '{name}' has no values; it needs one per group.", nameof(values));
        }

        if (values.Any(double.IsInfinity))
        {
            throw new ArgumentException($"Bar series '{name}' has an infinite value; values must be finite (NaN for a missing bar).", nameof(values));
        }

        (ErrorMinus, ErrorPlus) = ErrorBars.Copy(name, values.Count, errorMinus, errorPlus);
        Name = name;
        Values = [.. values];
        Color = color;
    }

    /// <summary>Legend text (empty: not in the legend).</summary>
    public string Name { get; }

    /// <summary>Fill colour.</summary>
    public PlotColor Color { get; }

    /// <summary>Bar heights, as given.</summary>
    public IReadOnlyList<double> Values { get; }

    /// <summary>Distances of the error bars' lower ends below the values, or null for no error bars.</summary>
    public IReadOnlyList<double>? ErrorMinus { get; }

    /// <summary>Distances of the error bars' upper ends above the values, or null for no error bars.</summary>
    public IReadOnlyList<double>? ErrorPlus { get; }

    /// <summary>Whether the series carries error bars.</summary>
    [JsonIgnore]
    public bool HasErrors => ErrorMinus is not null;
}
