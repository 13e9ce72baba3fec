using System.Text.Json;
using DivCon.Harness.Statistics;

namespace DivCon.Harness.Reporting;

/// <summary>
/// The JSON shapes every DivCon result file shares (cyclic.json, symmetric.json, factored.json, simulate.json):
/// an estimate is <c>{mean, ci99, sd, rsd, n}</c>, a ratio adds <c>se</c>, <c>df</c>, <c>nSp</c>; a number that is
/// not finite is written as <c>null</c>, and so is an interval with an infinite end.
/// </summary>
public static class ResultJsonShapes
{
    /// <summary>Writes an estimate as <c>{mean, ci99, sd, rsd, n}</c>, or <c>null</c>.</summary>
    public static void Sample(Utf8JsonWriter w, Estimate? e)
    {
        ArgumentNullException.ThrowIfNull(w);
        if (e is null)
        {
            w.WriteNullValue();
            return;
        }

        w.WriteStartObject();
        Number(w, "mean", e.Mean);
        Interval(w, e.Ci99);
        Number(w, "sd", e.StandardDeviation);
        Number(w, "rsd", e.RelativeStandardDeviation);
        w.WriteNumber("n", e.Count);
        w.WriteEndObject();
    }

    /// <summary>Writes a ratio of means as <c>{mean, ci99, sd, rsd, se, df, n, nSp}</c>, or <c>null</c>.</summary>
    public static void Ratio(Utf8JsonWriter w, RatioEstimate? r)
    {
        ArgumentNullException.ThrowIfNull(w);
        if (r is null)
        {
            w.WriteNullValue();
            return;
        }

        w.WriteStartObject();
        Number(w, "mean", r.Mean);
        Interval(w, r.Ci99);
        Number(w, "sd", r.StandardDeviation);
        Number(w, "rsd", r.RelativeStandardDeviation);
        Number(w, "se", r.StandardError);
        Number(w, "df", r.DegreesOfFreedom);
        w.WriteNumber("n", r.NumeratorCount);
        w.WriteNumber("nSp", r.DenominatorCount);
        w.WriteEndObject();
    }

    /// <summary>Writes the property <c>ci99</c>: <c>[lower, upper]</c>, or <c>null</c> when missing or not finite.</summary>
    public static void Interval(Utf8JsonWriter w, ConfidenceInterval? ci)
    {
        ArgumentNullException.ThrowIfNull(w);
        if (ci is { } c && double.IsFinite(c.Lower) && double.IsFinite(c.Upper))
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
    }

    /// <summary>Writes a named number, <c>null</c> when missing or not finite.</summary>
    public static void Number(Utf8JsonWriter w, string name, double? value)
    {
        ArgumentNullException.ThrowIfNull(w);
        w.WritePropertyName(name);
        NumberValue(w, value);
    }

    /// <summary>Writes a number value, <c>null</c> when missing or not finite.</summary>
    public static void NumberValue(Utf8JsonWriter w, double? value)
    {
        ArgumentNullException.ThrowIfNull(w);
        if (value is { } v && double.IsFinite(v))
        {
            w.WriteNumberValue(v);
        }
        else
        {
            w.WriteNullValue();
        }
    }

    /// <summary>
    /// Writes one repetition of a cyclic run (measured or simulated): its number, the per-program NTTs (null for a program
    /// with no run) and the scheme metrics.
    /// </summary>
    public static void Repetition(Utf8JsonWriter w, int repetition, IEnumerable<double?> ntt, double? antt, double? mntt, double? stp)
    {
        ArgumentNullException.ThrowIfNull(w);
        ArgumentNullException.ThrowIfNull(ntt);
        w.WriteStartObject();
        w.WriteNumber("repetition", repetition);
        w.WriteStartArray("ntt");
        foreach (double? v in ntt)
        {
            NumberValue(w, v);
        }

        w.WriteEndArray();
        Number(w, "antt", antt);
        Number(w, "mntt", mntt);
        Number(w, "stp", stp);
        w.WriteEndObject();
    }
}
