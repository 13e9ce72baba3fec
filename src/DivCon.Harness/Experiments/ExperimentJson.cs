using System.Globalization;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Statistics;

namespace DivCon.Harness.Experiments;

/// <summary>
/// The pieces every experiment result file shares: the header (<c>kind</c>, <c>schemaVersion</c>, <c>startedUtc</c>,
/// <c>elapsedSeconds</c>, <c>machine</c>), samples as <c>{ "mean", "ci99": [lo, hi] | null, "sd", "rsd", "n" }</c>, and
/// numbers with non-finite values written as null. Invariant culture throughout.
/// </summary>
internal static class ExperimentJson
{
    public static readonly JsonWriterOptions Options = new() { Indented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    public static string Write(Action<Utf8JsonWriter> body)
    {
        using var stream = new MemoryStream();
        using (var w = new Utf8JsonWriter(stream, Options))
        {
            body(w);
        }

        return Encoding.UTF8.GetString(stream.ToArray());
    }

    public static void Header(Utf8JsonWriter w, string kind, DateTimeOffset startedUtc, double elapsedSeconds, MachineInfo m)
    {
        w.WriteString("kind", kind);
        w.WriteNumber("schemaVersion", 1);
        w.WriteString("startedUtc", startedUtc.UtcDateTime.ToString("o", CultureInfo.InvariantCulture));
        Number(w, "elapsedSeconds", elapsedSeconds);
        w.WriteStartObject("machine");
        w.WriteNumber("processorCount", m.ProcessorCount);
        Ints(w, "affinity", m.Affinity);
        w.WriteString("os", m.OperatingSystem);
        w.WriteString("runtime", m.Runtime);
        w.WriteString("architecture", m.Architecture);
        w.WriteString("gitCommit", m.GitCommit);
        if (m.GitDirty is { } dirty)
        {
            w.WriteBoolean("gitDirty", dirty);
        }
        else
        {
            w.WriteNull("gitDirty");
        }

        w.WriteEndObject();
    }

    public static void Settings(Utf8JsonWriter w, ExperimentSettings s)
    {
        Strings(w, "programs", s.Programs);
        w.WriteString("size", s.Size.ToString().ToLowerInvariant());
        w.WriteNumber("runs", s.Runs);
        w.WriteNumber("warmupRuns", s.Warmup);
        Ints(w, "processors", s.Processors);
        w.WriteNumber("seed", s.Seed);
    }

    public static void Sample(Utf8JsonWriter w, string name, Estimate e, IEnumerable<double> values)
    {
        w.WriteStartObject(name);
        Number(w, "mean", e.Mean);
        if (e.Ci99 is { } c)
        {
            w.WriteStartArray("ci99");
            w.WriteNumberValue(c.Lower);
            w.WriteNumberValue(c.Upper);
            w.WriteEndArray();
        }
        else
        {
            w.WriteNull("ci99");
        }

        Number(w, "sd", e.StandardDeviation);
        Number(w, "rsd", e.RelativeStandardDeviation);
        w.WriteNumber("n", e.Count);
        w.WriteStartArray("seconds");
        foreach (double v in values)
        {
            w.WriteNumberValue(v);
        }

        w.WriteEndArray();
        w.WriteEndObject();
    }

    public static void Number(Utf8JsonWriter w, string name, double? value)
    {
        if (value is { } v && double.IsFinite(v))
        {
            w.WriteNumber(name, v);
        }
        else
        {
            w.WriteNull(name);
        }
    }

    public static void Strings(Utf8JsonWriter w, string name, IEnumerable<string> values)
    {
        w.WriteStartArray(name);
        foreach (string v in values)
        {
            w.WriteStringValue(v);
        }

        w.WriteEndArray();
    }

    public static void Ints(Utf8JsonWriter w, string name, IEnumerable<int> values)
    {
        w.WriteStartArray(name);
        foreach (int v in values)
        {
            w.WriteNumberValue(v);
        }

        w.WriteEndArray();
    }

    public static string Csv(double? value) =>
        value is { } v && double.IsFinite(v) ? v.ToString("R", CultureInfo.InvariantCulture) : string.Empty;

    public static string Csv(long value) => value.ToString(CultureInfo.InvariantCulture);
}
