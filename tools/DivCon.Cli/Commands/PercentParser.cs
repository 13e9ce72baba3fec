using System.Globalization;

namespace DivCon.Cli.Commands;

/// <summary>The one parser of relative amounts on the command line: <c>5%</c>, <c>2.5 %</c>, or a fraction <c>0.05</c>.</summary>
internal static class PercentParser
{
    /// <summary>Parses <paramref name="text"/> as a fraction (5% → 0.05); false for anything else, a bare number of 1 or more included.</summary>
    public static bool TryParse(string? text, out double fraction)
    {
        fraction = 0;
        if (string.IsNullOrWhiteSpace(text))
        {
            return false;
        }

        string t = text.Trim();
        bool percent = t.EndsWith('%');
        if (percent)
        {
            t = t[..^1].TrimEnd();
        }

        if (!double.TryParse(t, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out double value) || !double.IsFinite(value))
        {
            return false;
        }

        if (!percent && value >= 1)
        {
            return false; // "5" is ambiguous: 5 % or 500 %?
        }

        fraction = percent ? value / 100 : value;
        return true;
    }
}
