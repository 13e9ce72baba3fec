using DivCon.Scheduling;

namespace DivCon.Tests.Affinity;

public sealed class CpuListTests
{
    [Theory]
    [InlineData("", new int[0])]
    [InlineData("  \n", new int[0])]
    [InlineData("0", new[] { 0 })]
    [InlineData("0-1\n", new[] { 0, 1 })]
    [InlineData("5-5", new[] { 5 })]
    [InlineData("0-3,8,10-11", new[] { 0, 1, 2, 3, 8, 10, 11 })]
    [InlineData("3,1,1-2", new[] { 1, 2, 3 })]
    [InlineData(" 0 , 2 ", new[] { 0, 2 })]
    [InlineData("0-7:2", new[] { 0, 2, 4, 6 })]
    [InlineData("1-8:3,9", new[] { 1, 4, 7, 9 })]
    [InlineData("65535", new[] { 65535 })]
    public void Parse_GivesAscendingDistinctIds(string text, int[] expected)
    {
        Assert.Equal(expected, CpuList.Parse(text));
        Assert.True(CpuList.TryParse(text, out var ids));
        Assert.Equal(expected, ids);
    }

    [Theory]
    [InlineData("a")]
    [InlineData("1-")]
    [InlineData("-1")]
    [InlineData("3-1")]
    [InlineData("1,,2")]
    [InlineData(",")]
    [InlineData("0,")]
    [InlineData("0x1")]
    [InlineData("+1")]
    [InlineData("1 - 2")]
    [InlineData("65536")]
    [InlineData("99999999999")]
    [InlineData("0-7:0")]
    [InlineData("3:2")]
    [InlineData("0-3:")]
    public void Parse_RejectsMalformedText(string text)
    {
        var e = Assert.Throws<FormatException>(() => CpuList.Parse(text));
        Assert.Contains(text.Trim(), e.Message, StringComparison.Ordinal);
        Assert.False(CpuList.TryParse(text, out var ids));
        Assert.Empty(ids);
    }

    [Fact]
    public void TryParse_Null_IsFalse()
    {
        Assert.False(CpuList.TryParse(null, out var ids));
        Assert.Empty(ids);
        Assert.Throws<ArgumentNullException>(() => CpuList.Parse(null!));
    }

    [Theory]
    [InlineData(new int[0], "")]
    [InlineData(new[] { 0 }, "0")]
    [InlineData(new[] { 0, 1 }, "0-1")]
    [InlineData(new[] { 0, 2 }, "0,2")]
    [InlineData(new[] { 8, 0, 3, 1, 2 }, "0-3,8")]
    [InlineData(new[] { 1, 1, 2 }, "1-2")]
    [InlineData(new[] { 0, 1, 2, 3, 8, 10, 11 }, "0-3,8,10-11")]
    public void Format_MergesRuns(int[] ids, string expected)
    {
        Assert.Equal(expected, CpuList.Format(ids));
    }

    [Fact]
    public void Format_RejectsNegativeIds()
    {
        var e = Assert.Throws<ArgumentException>(() => CpuList.Format([0, -1]));
        Assert.Contains("-1", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void FormatThenParse_RoundTripsRandomSets()
    {
        var random = new Random(20261121);
        for (int i = 0; i < 500; i++)
        {
            int[] ids = Enumerable.Range(0, random.Next(0, 40)).Select(_ => random.Next(0, 200)).ToArray();
            int[] expected = ids.Distinct().Order().ToArray();

            Assert.Equal(expected, CpuList.Parse(CpuList.Format(ids)));
        }
    }
}
