using System.Globalization;
using System.Text.RegularExpressions;

namespace DivCon.Cli.Commands;

/// <summary>
/// The one parser of durations on the command line: <c>90s</c>, <c>2m</c>, <c>1m30s</c>, <c>500ms</c>, <c>20us</c>,
/// <c>100ns</c>, <c>1h</c>, or a bare number of seconds; case-insensitive, never negative.
/// </summary>
internal static partial class DurationParser
{
    /// <summary>Parses <paramref name="text"/> into nanoseconds.</summary>
    public static bool TryParseNanoseconds(string? text, out double nanoseconds)
    {
        nanoseconds = 0;
        if (string.IsNullOrWhiteSpace(text))
        {
            return false;
        }

        text = text.Trim().ToLowerInvariant();
        if (double.TryParse(text, NumberStyles.AllowDecimalPoint | NumberStyles.AllowExponent, CultureInfo.InvariantCulture, out double bare))
        {
            nanoseconds = bare * 1e9;
        }
        else if (Pattern().Match(text) is { Success: true, Length: > 0 } m)
        {
            nanoseconds = (Part(m, "h") * 3600e9) + (Part(m, "m") * 60e9) + (Part(m, "s") * 1e9) + (Part(m, "ms") * 1e6) + (Part(m, "us") * 1e3) + Part(m, "ns");
        }
        else
        {
            return false;
        }

        return double.IsFinite(nanoseconds) && nanoseconds < TimeSpan.MaxValue.TotalNanoseconds / 2;
    }

    /// <summary>
    /// Parses the value of <paramref name="option"/> into whole nanoseconds; null when it was not given, and null with a
    /// problem line when it is not a (positive, or with <paramref name="allowZero"/> non-negative) duration.
    /// </summary>
    public static long? Nanoseconds(string? text, string option, List<string> problems, bool allowZero = false)
    {
        if (text is null)
        {
            return null;
        }

        if (TryParseNanoseconds(text, out double ns) && (ns > 0 || (allowZero && ns == 0)) && ns < long.MaxValue)
        {
            return (long)Math.Round(ns);
        }

        problems.Add($"{option} takes a {(allowZero ? "non-negative" : "positive")} duration such as 30s, 2m, 1m30s, 500ms, 20us or 100ns; got '{text}'.");
        return null;
    }

    private static double Part(Match m, string group) =>
        m.Groups[group].Success ? double.Parse(m.Groups[group].Value, NumberStyles.Float, CultureInfo.InvariantCulture) : 0;

    [GeneratedRegex(@"^(?:(?<h>\d+(?:\.\d+)?)h)?(?:(?<m>\d+(?:\.\d+)?)m(?![s]))?(?:(?<s>\d+(?:\.\d+)?)s)?(?:(?<ms>\d+(?:\.\d+)?)ms)?(?:(?<us>\d+(?:\.\d+)?)us)?(?:(?<ns>\d+(?:\.\d+)?)ns)?$", RegexOptions.CultureInvariant)]
    private static partial Regex Pattern();
}
