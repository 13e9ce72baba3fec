using System.Text.Json;
using System.Text.Json.Serialization;

namespace DivCon.Metrics.Results;

/// <summary>
/// Numbers in result files: a value that is not finite (an undefined ratio, a missing interval end) is written as
/// <c>null</c> and read back as NaN, so a file never holds a made-up number and every JSON reader can parse it.
/// </summary>
public sealed class FiniteDoubleConverter : JsonConverter<double>
{
    /// <inheritdoc/>
    public override bool HandleNull => true;

    /// <inheritdoc/>
    public override double Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.TokenType == JsonTokenType.Null ? double.NaN : reader.GetDouble();

    /// <inheritdoc/>
    public override void Write(Utf8JsonWriter writer, double value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
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
