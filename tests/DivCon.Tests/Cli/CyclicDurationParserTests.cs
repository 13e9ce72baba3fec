using DivCon.Cli.Commands;

namespace DivCon.Tests.Cli;

public sealed class CyclicDurationParserTests
{
    [Theory]
    [InlineData("90s", 90)]
    [InlineData("2m", 120)]
    [InlineData("1m30s", 90)]
    [InlineData("500ms", 0.5)]
    [InlineData("1h", 3600)]
    [InlineData("1.5s", 1.5)]
    [InlineData("12", 12)]
    [InlineData(" 10S ", 10)]
    [InlineData("0s", 0)]
    public void Parses(string text, double seconds)
    {
        Assert.True(DurationParser.TryParseNanoseconds(text, out double ns));
        Assert.Equal(seconds, ns / 1e9, 9);
    }

    [Theory]
    [InlineData("")]
    [InlineData("soon")]
    [InlineData("-5s")]
    [InlineData("5 s")]
    [InlineData("s")]
    [InlineData("1e400")]
    public void Rejects(string text) => Assert.False(DurationParser.TryParseNanoseconds(text, out _));
}
