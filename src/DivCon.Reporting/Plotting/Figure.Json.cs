using System.Text;
using System.Text.Json;

namespace DivCon.Reporting.Plotting;

/// <summary>The figure model as JSON, to write next to the PNG.</summary>
public abstract partial class Figure
{
    /// <summary>The model as indented JSON: <c>kind</c> ("line", "bar", "stackedBar", "stackedStep"),
    /// <c>title</c>, the axes (<c>label</c>, <c>scale</c>, fixed <c>min</c>/<c>max</c> or null) and every series
    /// with exactly the values it holds (NaN written as null), so a reader can check that the picture shows the
    /// numbers of a results file. Property names are camelCase; numbers use the invariant format.</summary>
    public string ToJson()
    {
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { Indented = true }))
        {
            writer.WriteStartObject();
            writer.WriteString("kind", Kind);
            writer.WriteString("title", Title);
            writer.WriteBoolean("showLegend", ShowLegend);
            WriteModel(writer);
            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(buffer.ToArray());
    }

    /// <summary>The <c>kind</c> written by <see cref="ToJson"/>.</summary>
    private protected abstract string Kind { get; }

    /// <summary>Writes the figure's own properties into the open JSON object.</summary>
    private protected abstract void WriteModel(Utf8JsonWriter writer);

    private protected static void WriteAxis(Utf8JsonWriter writer, string name, Axis axis)
    {
        writer.WriteStartObject(name);
        writer.WriteString("label", axis.Label);
        writer.WriteString("scale", axis.Scale.ToString());
        writer.WriteBoolean("integerTicks", axis.IntegerTicks);
        WriteNumber(writer, "min", axis.Min ?? double.NaN);
        WriteNumber(writer, "max", axis.Max ?? double.NaN);
        writer.WriteEndObject();
    }

    private protected static void WriteNumber(Utf8JsonWriter writer, string name, double value)
    {
        if (double.IsFinite(value))
        {
            writer.WriteNumber(name, value);
        }
        else
        {
            writer.WriteNull(name);
        }
    }

    private protected static void WriteNumbers(Utf8JsonWriter writer, string name, IReadOnlyList<double>? values)
    {
        if (values is null)
        {
            writer.WriteNull(name);
            return;
        }

        writer.WriteStartArray(name);
        foreach (double v in values)
        {
            if (double.IsFinite(v))
            {
                writer.WriteNumberValue(v);
            }
            else
            {
                writer.WriteNullValue();
            }
        }

        writer.WriteEndArray();
    }

    private protected static void WriteStrings(Utf8JsonWriter writer, string name, IReadOnlyList<string> values)
    {
        writer.WriteStartArray(name);
        foreach (string v in values)
        {
            writer.WriteStringValue(v);
        }

        writer.WriteEndArray();
    }

    private protected static void WriteReferenceLines(Utf8JsonWriter writer, IReadOnlyList<ReferenceLine> lines)
    {
        writer.WriteStartArray("referenceLines");
        foreach (ReferenceLine line in lines)
        {
            writer.WriteStartObject();
            writer.WriteString("label", line.Label);
            writer.WriteNumber("slope", line.Slope);
            writer.WriteNumber("intercept", line.Intercept);
            writer.WriteString("color", line.Color.ToString());
            writer.WriteString("pattern", line.Pattern.ToString());
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
    }

    private protected static void WriteBarSeries(Utf8JsonWriter writer, string name, IReadOnlyList<BarSeries> series)
    {
        writer.WriteStartArray(name);
        foreach (BarSeries s in series)
        {
            writer.WriteStartObject();
            writer.WriteString("name", s.Name);
            writer.WriteString("color", s.Color.ToString());
            WriteNumbers(writer, "values", s.Values);
            WriteNumbers(writer, "errorMinus", s.ErrorMinus);
            WriteNumbers(writer, "errorPlus", s.ErrorPlus);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
    }
}
