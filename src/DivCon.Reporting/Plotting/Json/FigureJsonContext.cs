using System.Text.Json;
using System.Text.Json.Serialization;

namespace DivCon.Reporting.Plotting.Json;

/// <summary>The serialiser of the figures (source-generated): indented, camelCase, enums by name, a number that is not
/// finite as null, colours as #RRGGBBAA, every constructor parameter required and non-nullable ones never null. Each
/// figure and its parts (Axis, LineSeries, BarSeries, StepLayer, ReferenceLine) are written with their properties in
/// the order declared and read back through their constructors.</summary>
[JsonSourceGenerationOptions(
    WriteIndented = true,
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    UseStringEnumConverter = true,
    RespectNullableAnnotations = true,
    RespectRequiredConstructorParameters = true,
    Converters = [typeof(FigureJsonContext.NumberConverter), typeof(FigureJsonContext.ColorConverter)])]
[JsonSerializable(typeof(Figure))]
internal sealed partial class FigureJsonContext : JsonSerializerContext
{
    /// <summary>A number; one that is not finite (NaN: nothing drawn) is written and read as null.</summary>
    internal sealed class NumberConverter : JsonConverter<double>
    {
        public override bool HandleNull => true;

        public override double Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
            reader.TokenType == JsonTokenType.Null ? double.NaN : reader.GetDouble();

        public override void Write(Utf8JsonWriter writer, double value, JsonSerializerOptions options)
        {
            if (double.IsFinite(value))
            {
                writer.WriteNumberValue(value);
            }
            else
            {
                writer.WriteNullValue();
            }
        }
    }

    /// <summary>A colour as <c>#RRGGBBAA</c>.</summary>
    internal sealed class ColorConverter : JsonConverter<PlotColor>
    {
        public override PlotColor Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
            Plotting.PlotColor.FromHex(reader.GetString() ?? throw new JsonException("A colour must be a string like #RRGGBBAA."));

        public override void Write(Utf8JsonWriter writer, PlotColor value, JsonSerializerOptions options) =>
            writer.WriteStringValue(value.ToString());
    }
}
