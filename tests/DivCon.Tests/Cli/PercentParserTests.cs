using DivCon.Cli.Commands;

namespace DivCon.Tests.Cli;

public sealed class PercentParserTests
{
    [Theory]
    [InlineData("5%", 0.05)]
    [InlineData("2.5 %", 0.025)]
    [InlineData(" 0.05 ", 0.05)]
    [InlineData("100%", 1.0)]
    public void Parses(string text, double expected)
    {
        Assert.True(PercentParser.TryParse(text, out double value));
        Assert.Equal(expected, value, 12);
    }

    [Theory]
    [InlineData("")]
    [InlineData("5")]
    [InlineData("five%")]
    [InlineData("-5%")]
    [InlineData("1,5%")]
    public void Rejects(string text) => Assert.False(PercentParser.TryParse(text, out _));
}
