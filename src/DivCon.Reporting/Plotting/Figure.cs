using System.Text.Json;
using System.Text.Json.Serialization;
using DivCon.Reporting.Plotting.Json;
using DivCon.Reporting.Plotting.Rendering;
using ScottPlot;

namespace DivCon.Reporting.Plotting;

/// <summary>A figure: a plain data model (title, axes, series) that ScottPlot draws to PNG. What is drawn is exactly
/// what the model holds, so a caller can write the model's values as JSON next to the PNG. Text is DejaVu Sans,
/// carried inside this assembly, so a machine without fonts draws every label. A figure with no drawable data renders
/// its frame with the message "No data" rather than failing. A figure is not thread-safe while it is being changed;
/// rendering does not change it. As JSON (<see cref="ToJson"/>) the <c>kind</c> discriminator comes first, then the
/// title, the legend switch, the kind's own properties and the reference lines.</summary>
[JsonPolymorphic(TypeDiscriminatorPropertyName = "kind", UnknownDerivedTypeHandling = JsonUnknownDerivedTypeHandling.FailSerialization)]
[JsonDerivedType(typeof(LinePlot), "line")]
[JsonDerivedType(typeof(BarChart), "bar")]
[JsonDerivedType(typeof(StackedBarChart), "stackedBar")]
[JsonDerivedType(typeof(StackedStepPlot), "stackedStep")]
public abstract class Figure
{
    /// <summary>The image width in pixels.</summary>
    public const int DefaultWidth = 800;

    /// <summary>The image height in pixels.</summary>
    public const int DefaultHeight = 600;

    private readonly List<ReferenceLine> _referenceLines = [];

    private protected Figure(string title)
    {
        ArgumentNullException.ThrowIfNull(title);
        Title = title;
    }

    /// <summary>Text above the plot (may be empty).</summary>
    [JsonPropertyOrder(-4)]
    public string Title
    {
        get;
        set => field = value ?? throw new ArgumentNullException(nameof(value), "A title may be empty but not null.");
    }

    /// <summary>Whether the legend is drawn (only entries with a non-empty name appear; no entries, no legend).
    /// It goes in the inner corner of the plot that covers the least data, or right of the plot when every corner
    /// would cover data.</summary>
    [JsonPropertyOrder(-3)]
    public bool ShowLegend { get; set; } = true;

    /// <summary>The reference lines, drawn under the data (a stacked bar chart has none).</summary>
    [JsonPropertyOrder(1)]
    public virtual IReadOnlyList<ReferenceLine> ReferenceLines => _referenceLines;

    /// <summary>Renders the figure as a PNG image of <see cref="DefaultWidth"/> × <see cref="DefaultHeight"/> pixels.</summary>
    /// <exception cref="InvalidOperationException">The model cannot be drawn as configured (e.g. a log axis with
    /// limits ≤ 0); the message says what to change.</exception>
    public byte[] RenderPng()
    {
        using Plot plot = ToScottPlot();
        return plot.GetImageBytes(DefaultWidth, DefaultHeight, ImageFormat.Png);
    }

    /// <summary>The ScottPlot plot that draws this figure.</summary>
    internal Plot ToScottPlot()
    {
        EmbeddedFont.EnsureRegistered();
        var plot = new Plot();
        FigureStyle.Apply(plot, Title);
        var legend = new LegendPlacer();
        Draw(plot, legend);
        if (!HasData)
        {
            plot.Add.Annotation("No data", Alignment.MiddleCenter);
        }

        if (ShowLegend)
        {
            legend.Place(plot, DefaultWidth, DefaultHeight);
        }
        else
        {
            plot.HideLegend();
        }

        return plot;
    }

    /// <summary>Whether anything can be drawn (at least one value that maps onto the axes).</summary>
    internal abstract bool HasData { get; }

    /// <summary>Adds <paramref name="line"/> to <see cref="ReferenceLines"/>.</summary>
    private protected ReferenceLine AddLine(ReferenceLine line)
    {
        ArgumentNullException.ThrowIfNull(line);
        _referenceLines.Add(line);
        return line;
    }

    /// <summary>Adds <paramref name="lines"/> (a figure read back from JSON) to <see cref="ReferenceLines"/>.</summary>
    private protected void AddLines(IEnumerable<ReferenceLine> lines) => _referenceLines.AddRange(lines);

    /// <summary>Adds the data, the axes' limits and ticks to <paramref name="plot"/>, and tells
    /// <paramref name="legend"/> where the data lies (in the plot's coordinates).</summary>
    private protected abstract void Draw(Plot plot, LegendPlacer legend);

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
