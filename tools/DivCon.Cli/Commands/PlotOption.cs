using System.CommandLine;

namespace DivCon.Cli.Commands;

/// <summary>The <c>--plots none|png</c> option every experiment command has.</summary>
internal static class PlotOption
{
    public const string Png = "png";
    public const string None = "none";

    public static Option<string> Create() => new("--plots")
    {
        Description = "Figures to write beside the results: png (default; each PNG with its figure model as .plot.json) or none.",
        DefaultValueFactory = _ => Png,
    };

    /// <summary>True for png, false for none; otherwise adds a problem line and returns false.</summary>
    public static bool Read(ParseResult parse, Option<string> option, List<string> problems)
    {
        string value = parse.GetValue(option) ?? string.Empty;
        if (string.Equals(value, Png, StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }

        if (!string.Equals(value, None, StringComparison.OrdinalIgnoreCase))
        {
            problems.Add($"--plots '{value}' is not allowed; use png or none.");
        }

        return false;
    }
}
