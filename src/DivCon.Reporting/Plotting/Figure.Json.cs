using System.Text.Json;
using DivCon.Reporting.Plotting.Json;

namespace DivCon.Reporting.Plotting;

/// <summary>The figure model as JSON, to write next to the PNG, and back.</summary>
public abstract partial class Figure
{
    /// <summary>The model as indented JSON: <c>kind</c> ("line", "bar", "stackedBar", "stackedStep"),
    /// <c>title</c>, <c>showLegend</c>, the axes (<c>label</c>, <c>scale</c>, <c>integerTicks</c>, fixed
    /// <c>min</c>/<c>max</c> or null) and every series with exactly the values it holds (NaN written as null), so a
    /// reader can check that the picture shows the numbers of a results file. Property names are camelCase.</summary>
    public string ToJson() => JsonSerializer.Serialize(this, FigureJsonContext.Default.Figure);

    /// <summary>The figure described by <paramref name="json"/>, as written by <see cref="ToJson"/>: same kind,
    /// title, axes, series, values (null read back as NaN), colours and reference lines.</summary>
    /// <exception cref="FormatException">The text is not such a figure; the message says what is wrong.</exception>
    public static Figure FromJson(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        try
        {
            return JsonSerializer.Deserialize(json, FigureJsonContext.Default.Figure)
                ?? throw new FormatException("Not a figure written by Figure.ToJson: the text is null.");
        }
        catch (Exception e) when (e is JsonException or NotSupportedException or ArgumentException)
        {
            throw new FormatException($"Not a figure written by Figure.ToJson (kind line, bar, stackedBar or stackedStep): {e.Message}", e);
        }
    }
}
