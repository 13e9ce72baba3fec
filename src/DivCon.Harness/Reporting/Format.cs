using System.Globalization;
using DivCon.Metrics.Statistics;

namespace DivCon.Harness.Reporting;

/// <summary>Number formatting for tables and reports: invariant culture, fixed decimals, "n/a" for missing.</summary>
internal static class Format
{
    public static string Number(double? value, string format = "0.000") =>
        value is { } v && double.IsFinite(v) ? v.ToString(format, CultureInfo.InvariantCulture) : "n/a";

    /// <summary>"2.014 ± 0.123" (half-width of the 99 % interval) or "2.014 ± n/a".</summary>
    public static string PlusMinus(double? mean, ConfidenceInterval? ci, string format = "0.000") =>
        mean is null ? "n/a" : $"{Number(mean, format)} ± {(ci is { } c ? Number(c.HalfWidth, format) : "n/a")}";

    public static string PlusMinus(Estimate? e, string format = "0.000") => PlusMinus(e?.Mean, e?.Ci99, format);

    public static string PlusMinus(RatioEstimate? r, string format = "0.000") => PlusMinus(r?.Mean, r?.Ci99, format);
}
