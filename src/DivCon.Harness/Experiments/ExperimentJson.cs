using System.Globalization;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Statistics;
using static DivCon.Harness.Reporting.ResultJsonShapes;

namespace DivCon.Harness.Experiments;

/// <summary>
/// The pieces every experiment result file shares: the header (<c>kind</c>, <c>schemaVersion</c>, <c>startedUtc</c>,
/// <c>elapsedSeconds</c>, <c>machine</c>), samples as <c>{ "mean", "ci99": [lo, hi] | null, "sd", "rsd", "n", "seconds" }</c>;
/// numbers (and intervals) with non-finite values are written as null, as <see cref="Reporting.ResultJsonShapes"/> does for every
/// result file. Invariant culture throughout.
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

    /// <summary>
    /// A whole result file: the header, <c>configuration</c> (the settings, then what <paramref name="configuration"/>
    /// adds) and <c>programs</c>, one object per program written by <paramref name="program"/>.
    /// </summary>
    public static string Document<TProgram>(
        string kind, DateTimeOffset startedUtc, double elapsedSeconds, MachineInfo machine, ExperimentSettings settings,
        Action<Utf8JsonWriter> configuration, IEnumerable<TProgram> programs, Action<Utf8JsonWriter, TProgram> program) => Write(w =>
    {
        w.WriteStartObject();
        Header(w, kind, startedUtc, elapsedSeconds, machine);
        w.WriteStartObject("configuration");
        Settings(w, settings);
        configuration(w);
        w.WriteEndObject();
        Objects(w, "programs", programs, program);
        w.WriteEndObject();
    });

    /// <summary>The array <paramref name="name"/>: one object per item, its properties written by <paramref name="write"/>.</summary>
    public static void Objects<T>(Utf8JsonWriter w, string name, IEnumerable<T> items, Action<Utf8JsonWriter, T> write)
    {
        w.WriteStartArray(name);
        foreach (T item in items)
        {
            w.WriteStartObject();
            write(w, item);
            w.WriteEndObject();
        }

        w.WriteEndArray();
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
        Interval(w, e.Ci99);
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
