using System.Globalization;
using System.Text.RegularExpressions;

namespace DivCon.Cli.Commands;

/// <summary>Parses durations written like <c>90s</c>, <c>2m</c>, <c>1m30s</c>, <c>500ms</c>, <c>1h</c>, or a bare number of seconds.</summary>
internal static partial class DurationParser
{
    public static bool TryParse(string? text, out TimeSpan duration)
    {
        duration = default;
        if (string.IsNullOrWhiteSpace(text))
        {
            return false;
        }

        text = text.Trim().ToLowerInvariant();
        if (double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double bare))
        {
            return TryFromSeconds(bare, out duration);
        }

        Match m = Pattern().Match(text);
        if (!m.Success || m.Length == 0)
        {
            return false;
        }

        double seconds = 0;
        seconds += Part(m, "h") * 3600;
        seconds += Part(m, "m") * 60;
        seconds += Part(m, "s");
        seconds += Part(m, "ms") / 1000;
        return TryFromSeconds(seconds, out duration);
    }

    private static double Part(Match m, string group) =>
        m.Groups[group].Success ? double.Parse(m.Groups[group].Value, NumberStyles.Float, CultureInfo.InvariantCulture) : 0;

    private static bool TryFromSeconds(double seconds, out TimeSpan duration)
    {
        duration = default;
        if (!double.IsFinite(seconds) || seconds > TimeSpan.MaxValue.TotalSeconds / 2)
        {
            return false;
        }

        duration = TimeSpan.FromSeconds(seconds);
        return true;
    }

    [GeneratedRegex(@"^(?:(?<h>\d+(?:\.\d+)?)h)?(?:(?<m>\d+(?:\.\d+)?)m(?!s))?(?:(?<s>\d+(?:\.\d+)?)s)?(?:(?<ms>\d+(?:\.\d+)?)ms)?$", RegexOptions.CultureInvariant)]
    private static partial Regex Pattern();
}
