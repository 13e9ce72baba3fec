using System.Text.Json;

namespace DivCon.Harness.Plots;

// Reading numbers back from a result file: null or missing → NaN, so a figure draws nothing rather than a made-up value.
internal static class ResultJson
{
    public static double Number(JsonElement e, string name) =>
        e.ValueKind == JsonValueKind.Object && e.TryGetProperty(name, out JsonElement v) && v.ValueKind == JsonValueKind.Number ? v.GetDouble() : double.NaN;

    public static JsonElement Property(JsonElement e, string name) =>
        e.ValueKind == JsonValueKind.Object && e.TryGetProperty(name, out JsonElement v) ? v : default;

    public static string Text(JsonElement e, string name) =>
        e.ValueKind == JsonValueKind.Object && e.TryGetProperty(name, out JsonElement v) && v.ValueKind == JsonValueKind.String ? v.GetString()! : string.Empty;

    public static IEnumerable<JsonElement> Array(JsonElement e, string name) =>
        e.ValueKind == JsonValueKind.Object && e.TryGetProperty(name, out JsonElement v) && v.ValueKind == JsonValueKind.Array ? v.EnumerateArray() : [];

    /// <summary>The mean of a sample object and its 99 % interval as distances below and above (NaN when absent).</summary>
    public static (double Mean, double Minus, double Plus) MeanAndCi(JsonElement sample)
    {
        double mean = Number(sample, "mean");
        JsonElement ci = Property(sample, "ci99");
        if (ci.ValueKind == JsonValueKind.Array && ci.GetArrayLength() == 2 && double.IsFinite(mean))
        {
            double lo = ci[0].GetDouble(), hi = ci[1].GetDouble();
            return (mean, Math.Max(0, mean - lo), Math.Max(0, hi - mean));
        }

        return (mean, double.NaN, double.NaN);
    }

    /// <summary>A file-name-safe form of a program or scheme name.</summary>
    public static string Slug(string name)
    {
        var chars = name.Select(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' ? char.ToLowerInvariant(c) : '-').ToArray();
        string slug = new string(chars).Trim('-');
        return slug.Length == 0 ? "unnamed" : slug;
    }
}
