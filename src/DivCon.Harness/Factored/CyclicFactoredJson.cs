using System.Text.Json;

namespace DivCon.Harness.Factored;

/// <summary>
/// Writes a program's <c>"factored"</c> and <c>"factoredReason"</c> properties in cyclic.json / symmetric.json: the
/// multiprogram decomposition with the same speedup names as factored.json, or <c>null</c> and the reason there are
/// no numbers (a scheme without per-program accounting, or a missing T_s / T_1 / run).
/// </summary>
public static class CyclicFactoredJson
{
    /// <summary>Writes both properties for <paramref name="factored"/> (null: the scheme keeps no accounting).</summary>
    public static void Write(Utf8JsonWriter w, MultiprogramFactored? factored)
    {
        ArgumentNullException.ThrowIfNull(w);
        factored ??= MultiprogramFactored.Unavailable(MultiprogramFactored.NoAccountingReason);
        if (factored.Point is not FactoredPoint point || factored.Accounting is not ProgramCoreAccounting a)
        {
            w.WriteNull("factored");
            w.WriteString("factoredReason", factored.Reason ?? MultiprogramFactored.NoAccountingReason);
            return;
        }

        w.WriteStartObject("factored");
        Number(w, "coresHeld", point.P);
        Number(w, "tmp", point.Tp);
        Number(w, "ip", point.Ip);
        Number(w, "wp", point.Wp);
        Number(w, "fp", point.Fp);
        Number(w, "ts", a.SequentialSeconds);
        Number(w, "t1", a.OneWorkerSeconds);
        Number(w, "telision", a.ElisionSeconds);
        Number(w, "intervalSeconds", a.IntervalSeconds);
        Number(w, "coreSecondsHeld", a.CoreSecondsHeld);
        Number(w, "idleSeconds", a.IdleSeconds);
        w.WritePropertyName("speedups");
        FactoredJsonWriter.WriteSpeedups(w, point.Speedups);
        w.WriteEndObject();
        w.WriteNull("factoredReason");
    }

    private static void Number(Utf8JsonWriter w, string name, double? value)
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
}
