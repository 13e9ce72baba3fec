using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace DivCon.Metrics.Results;

/// <summary>
/// Result files as JSON: every record is serialized by a source-generated <see cref="JsonSerializerContext"/> built on
/// <see cref="CreateOptions"/> (camelCase, indented, enums as camelCase strings, non-finite numbers as null), and read
/// back into the same record after its header is checked.
/// </summary>
public static class ResultJson
{
    /// <summary>The options every result context is created with.</summary>
    public static JsonSerializerOptions CreateOptions() => new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        WriteIndented = true,
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        Converters = { new FiniteDoubleConverter(), new JsonStringEnumConverter(JsonNamingPolicy.CamelCase) },
    };

    /// <summary>The UTF-8 bytes of <paramref name="value"/>, with a newline at the end.</summary>
    public static byte[] ToUtf8<T>(T value, JsonTypeInfo<T> type)
    {
        ArgumentNullException.ThrowIfNull(type);
        return Encoding.UTF8.GetBytes(JsonSerializer.Serialize(value, type) + "\n");
    }

    /// <summary>
    /// The first two properties of a result file, read before the rest: which result it holds (null when it says none)
    /// and the shape of the file (0 when it says none).
    /// </summary>
    /// <exception cref="ResultFileException">Not a JSON object.</exception>
    public static (string? Kind, int SchemaVersion) Header(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        try
        {
            using JsonDocument doc = JsonDocument.Parse(json);
            JsonElement root = doc.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
            {
                throw new ResultFileException("not a DivCon result file (the JSON is not an object).");
            }

            string? kind = root.TryGetProperty("kind", out JsonElement k) && k.ValueKind == JsonValueKind.String ? k.GetString() : null;
            int version = root.TryGetProperty("schemaVersion", out JsonElement v) && v.TryGetInt32(out int n) ? n : 0;
            return (kind, version);
        }
        catch (JsonException e)
        {
            throw new ResultFileException($"not valid JSON ({e.Message.Split('\n')[0]}).", e);
        }
    }

    /// <summary>
    /// Reads <paramref name="json"/> as <typeparamref name="T"/> after checking that its header says one of
    /// <paramref name="kinds"/> and a schema version this build reads (<see cref="ResultFile.OldestReadableVersion"/>).
    /// </summary>
    /// <exception cref="ResultFileException">Another kind, another schema version, or a body that does not fit the record.</exception>
    public static T Read<T>(string json, JsonTypeInfo<T> type, params string[] kinds)
        where T : ResultFile
    {
        ArgumentNullException.ThrowIfNull(type);
        var header = Header(json);
        CheckVersion(header, kinds);
        try
        {
            return JsonSerializer.Deserialize(json, type) ?? throw new ResultFileException("the file holds null.");
        }
        catch (Exception e) when (e is JsonException or NotSupportedException or ArgumentException or InvalidOperationException)
        {
            throw new ResultFileException($"a {header.Kind} file that does not fit this build's record ({e.Message.Split('\n')[0]}).", e);
        }
    }

    /// <summary>Throws unless <paramref name="header"/> names one of <paramref name="kinds"/> in a schema version this build reads.</summary>
    /// <exception cref="ResultFileException">It does not.</exception>
    public static void CheckVersion((string? Kind, int SchemaVersion) header, IReadOnlyCollection<string> kinds)
    {
        ArgumentNullException.ThrowIfNull(kinds);
        if (header.Kind is null || !kinds.Contains(header.Kind))
        {
            throw new ResultFileException(header.Kind is null
                ? $"not a DivCon result file (no \"kind\"); expected one of: {string.Join(", ", kinds)}."
                : $"a result of kind '{header.Kind}', which this command does not read; expected one of: {string.Join(", ", kinds)}.");
        }

        int oldest = ResultFile.OldestReadableVersion(header.Kind);
        if (header.SchemaVersion < oldest || header.SchemaVersion > ResultFile.CurrentSchemaVersion)
        {
            string readable = oldest == ResultFile.CurrentSchemaVersion ? $"version {oldest}" : $"versions {oldest} to {ResultFile.CurrentSchemaVersion}";
            throw new ResultFileException(
                $"a {header.Kind} file of schema version {header.SchemaVersion}; this build reads {readable}: rerun the command that made it.");
        }
    }
}
