using DivCon.Cli.Commands;

namespace DivCon.Tests.Cli;

public sealed class PercentParserTests
{
    [Theory]
    [InlineData("5%", 0.05)]
    [InlineData("2.5 %", 0.025)]
    [InlineData(" 0.05 ", 0.05)]
    [InlineData("99.5%", 0.995)]
    public void Parses(string text, double expected)
    {
        var problems = new List<string>();
        Assert.Equal(expected, CommandInput.ReadPercent(text, "--detect", problems)!.Value, 12);
        Assert.Empty(problems);
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("5")]
    [InlineData("five%")]
    [InlineData("-5%")]
    [InlineData("1,5%")]
    [InlineData("100%")]
    [InlineData("0%")]
    public void Rejects_WithOneProblemLine(string? text)
    {
        var problems = new List<string>();
        Assert.Null(CommandInput.ReadPercent(text, "--detect", problems));
        Assert.Equal($"--detect '{text}' is not a percentage between 0 and 100; write e.g. 5% or 0.05.", Assert.Single(problems));
    }
}
