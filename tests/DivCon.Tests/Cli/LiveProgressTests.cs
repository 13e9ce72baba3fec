using System.Text.RegularExpressions;
using DivCon.Cli.Output;
using Spectre.Console.Testing;

namespace DivCon.Tests.Cli;

public sealed partial class LiveProgressTests
{
    [GeneratedRegex(@"\x1b\[[0-9;?]*[A-Za-z]")]
    private static partial Regex Ansi();

    // On an 80-column terminal a long progress line is cut to one row, so the bar and the times stay in view instead
    // of wrapping the description over several rows.
    [Theory]
    [InlineData(80)]
    [InlineData(120)]
    public async Task LongLines_AreCutToOneRowOfTheTerminal(int width)
    {
        var console = new TestConsole().Width(width).Interactive().EmitAnsiSequences();
        string line = "quicksort: run 2/3 done (T_s 0.014 s, T_1 0.015 s, T_2 0.016 s) and a good deal more text than fits on one row";

        int result = await LiveProgress.RunAsync(console, progress =>
        {
            progress.Phase("quicksort: 1 warm-up + 3 rounds", 3);
            progress.Advance(1, "[  12.3 s] " + line);
            progress.Line(line);
            return Task.FromResult(42);
        }).WaitAsync(TimeSpan.FromMinutes(1));

        Assert.Equal(42, result);
        string[] rows = Ansi().Replace(console.Output, string.Empty).Split('\n').Select(r => r.TrimEnd('\r', ' ')).Where(r => r.Length > 0).ToArray();
        Assert.Contains(rows, r => r.StartsWith("quicksort: run 2/3 done", StringComparison.Ordinal) && r.Contains('…'));
        Assert.All(rows, r => Assert.True(r.Length <= width, $"{r.Length} > {width}: '{r}'"));
        Assert.DoesNotContain(rows, r => r.Contains("[  12.3 s]", StringComparison.Ordinal));
    }
}
