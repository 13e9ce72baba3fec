using System.Globalization;
using DivCon.Metrics;
using DivCon.Metrics.Results;
using DivCon.Metrics.Statistics;
using DivCon.Metrics.Throttling;

namespace DivCon.Harness.Reporting;

/// <summary>Number formatting for tables and reports: invariant culture, fixed decimals, "n/a" for missing.</summary>
internal static class Format
{
    public static string Number(double? value, string format = "0.000") =>
        value is { } v && double.IsFinite(v) ? v.ToString(format, CultureInfo.InvariantCulture) : "n/a";

    /// <summary>"2.014 [1.950, 2.101]" (the 99 % interval), or "2.014" without one, or "n/a" without a value.</summary>
    public static string Interval(double? mean, ConfidenceInterval? ci, string format = "0.000") =>
        mean is null ? "n/a" : ci is { } c ? $"{Number(mean, format)} [{Number(c.Lower, format)}, {Number(c.Upper, format)}]" : Number(mean, format);

    public static string Interval(Estimate? e, string format = "0.000") => Interval(e?.Mean, e?.Ci99, format);

    public static string Interval(RatioEstimate? r, string format = "0.000") => Interval(r?.Mean, r?.Ci99, format);

    public static string Interval(BootstrapEstimate? b, string format = "0.000") => Interval(b?.Mean, b?.Ci99, format);

    /// <summary>"12.3 %" for 0.123.</summary>
    public static string Percent(double? value, string format = "0.0") => value is { } v && double.IsFinite(v) ? Number(v * 100, format) + " %" : "n/a";

    /// <summary>
    /// A relative difference 0.05 as "5.0 %", or, from 100 % up, as the factor it is ("a factor of 3.2"; "more than
    /// a factor of 100"), so that the detectable difference of a small run reads as what it is.
    /// </summary>
    public static string Difference(double? value) => value switch
    {
        null => "n/a",
        double v when !double.IsFinite(v) || v + 1 > 100 => "more than a factor of 100",
        double v when v >= 1 => $"a factor of {Number(v + 1, "0.0")}",
        double v => Percent(v),
    };

    /// <summary>A p-value: four decimals, or "&lt; 0.0001".</summary>
    public static string P(double? p) => p is { } v ? (v < 0.0001 ? "< 0.0001" : Number(v, "0.0000")) : "n/a";

    /// <summary>"2 of 3 runs, Θ 0.512 s, 12.3 of 40.0 periods per run": how a measurement's runs were throttled.</summary>
    public static string Throttled(ThrottlingSummary t) => string.Create(CultureInfo.InvariantCulture,
        $"{t.ThrottledRuns} of {t.Runs} runs, Θ {t.MeanThrottledSeconds:0.000} s, {t.MeanThrottledPeriods:0.#} of {t.MeanPeriods:0.#} periods per run");

    /// <summary>
    /// How a throttling note starts: "CPU budget: …" where the machine records one, then, unless the run read the
    /// cgroup's throttling counters, that throttling was not measured.
    /// </summary>
    public static List<string> BudgetLines(MachineInfo? machine, bool measured)
    {
        var lines = new List<string>();
        lines.AddIf(machine?.Budget is not null, $"CPU budget: {machine?.Budget}");
        lines.AddIf(!measured, "CPU throttling: not measured (no cgroup cpu.stat to read here).");
        return lines;
    }
}
