using DivCon.Reporting.Plotting;
using DivCon.Reporting.Plotting.Rendering;

namespace DivCon.Tests.Reporting;

public sealed class TickGeneratorTests
{
    [Theory]
    [InlineData(10, 6, 2)]
    [InlineData(10, 11, 1)]
    [InlineData(1, 6, 0.2)]
    [InlineData(0.85, 10, 0.1)]
    [InlineData(7, 3, 5)]
    [InlineData(1e8, 5, 5e7)]
    [InlineData(0.003, 4, 0.001)]
    public void NiceStep_IsTheSmallestOneTwoFiveStepThatFits(double range, int maxTicks, double expected)
    {
        Assert.Equal(expected, TickGenerator.NiceStep(range, maxTicks), 12);
    }

    public static TheoryData<AxisScale, double, double, int, string[]> Cases => new()
    {
        { AxisScale.Linear, 0, 10, 6, ["0", "2", "4", "6", "8", "10"] },
        { AxisScale.Linear, -3.2, 7.9, 7, ["-2", "0", "2", "4", "6"] },
        { AxisScale.Linear, 0.1, 0.95, 10, ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"] },
        { AxisScale.Linear, 0.7, 1.3, 4, ["0.8", "1.0", "1.2"] },
        { AxisScale.Linear, 0, 1e8, 5, ["0", "5e7", "1e8"] },
        { AxisScale.Linear, 2.5, 3.5, 3, ["2.5", "3.0", "3.5"] },
        { AxisScale.Log2, 0.8, 20, 10, ["1", "2", "4", "8", "16"] },
        { AxisScale.Log2, 1, 1024, 5, ["1", "8", "64", "512"] },
        { AxisScale.Log2, 0.2, 1.1, 10, ["0.25", "0.5", "1"] },
        { AxisScale.Log10, 16, 262144, 10, ["100", "1000", "10000", "100000"] },
        { AxisScale.Log10, 1e-9, 1e3, 4, ["1e-9", "1e-5", "0.1", "1000"] },
        { AxisScale.Log10, 2, 30, 10, ["2", "5", "10", "20"] },
        { AxisScale.Log10, 3, 7, 10, ["3.0", "3.5", "4.0", "4.5", "5.0", "5.5", "6.0", "6.5", "7.0"] },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Generate_GivesHandPickedTicks(AxisScale scale, double min, double max, int maxTicks, string[] labels)
    {
        IReadOnlyList<Tick> ticks = TickGenerator.Generate(scale, min, max, maxTicks);

        Assert.Equal(labels, ticks.Select(t => t.Label));
        Assert.All(ticks, t => Assert.InRange(t.Value, min, max));
        Assert.True(ticks.Count <= maxTicks, $"{ticks.Count} ticks for at most {maxTicks}");
    }

    [Theory]
    [InlineData(AxisScale.Log2, 0.96, 2.07, false, new[] { "1.0", "1.2", "1.4", "1.6", "1.8", "2.0" })]
    [InlineData(AxisScale.Log2, 0.96, 2.07, true, new[] { "1", "2" })]
    [InlineData(AxisScale.Linear, 0.9, 2.1, true, new[] { "1", "2" })]
    [InlineData(AxisScale.Linear, 0, 4.2, true, new[] { "0", "1", "2", "3", "4" })]
    [InlineData(AxisScale.Linear, 1.1, 1.9, true, new[] { "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9" })]
    public void IntegerTicks_KeepCoreCountsWhole(AxisScale scale, double min, double max, bool integerOnly, string[] labels)
    {
        Assert.Equal(labels, TickGenerator.Generate(scale, min, max, 10, integerOnly).Select(t => t.Label));
    }

    [Fact]
    public void MinorTicks_FillLog10DecadesOnly()
    {
        IReadOnlyList<Tick> majors = TickGenerator.Log10(1, 100, 10);

        IReadOnlyList<double> minors = TickGenerator.Minor(AxisScale.Log10, 1, 100, majors);

        Assert.Equal(["1", "10", "100"], majors.Select(t => t.Label));
        Assert.Equal([2, 3, 4, 5, 6, 7, 8, 9, 20, 30, 40, 50, 60, 70, 80, 90], minors.Select(v => Math.Round(v, 9)));
        Assert.Empty(TickGenerator.Minor(AxisScale.Linear, 0, 10, TickGenerator.Linear(0, 10, 6)));
        Assert.Empty(TickGenerator.Minor(AxisScale.Log2, 1, 16, TickGenerator.Log2(1, 16, 10)));
    }

    [Fact]
    public void Linear_NeverPrintsMinusZeroOrRoundingNoise()
    {
        IReadOnlyList<Tick> ticks = TickGenerator.Linear(-0.3, 0.3, 7);

        Assert.Equal(["-0.3", "-0.2", "-0.1", "0.0", "0.1", "0.2", "0.3"], ticks.Select(t => t.Label));
        Assert.Equal(0.0, ticks[3].Value);
        Assert.False(double.IsNegative(ticks[3].Value));
    }

    [Theory]
    [InlineData(AxisScale.Linear, 5, 5, 4.5, 5.5)]
    [InlineData(AxisScale.Linear, 0, 0, -1, 1)]
    [InlineData(AxisScale.Linear, 0, 10, -0.5, 10.5)]
    [InlineData(AxisScale.Log2, 4, 4, 2, 8)]
    [InlineData(AxisScale.Log10, 1, 16, 0.870550563296124, 18.379173679952558)]
    public void PaddedRange_WidensDegenerateRangesAndPadsOthers(AxisScale scale, double lo, double hi, double min, double max)
    {
        var range = AxisMap.PaddedRange(scale, lo, hi, 0.05);

        Assert.Equal(min, range.Min, 9);
        Assert.Equal(max, range.Max, 9);
    }

    [Fact]
    public void AxisMap_MapsLinearAndLogValuesAndRejectsUnmappable()
    {
        var linear = new AxisMap(AxisScale.Linear, 0, 10, 100, 200);
        var log = new AxisMap(AxisScale.Log2, 1, 16, 500, 100); // a y axis: grows upwards

        Assert.Equal(125, linear.ToPixel(2.5), 9);
        Assert.Equal(2.5, linear.FromPixel(125), 9);
        Assert.Equal(300, log.ToPixel(4), 9);
        Assert.Equal(8, log.FromPixel(200), 9);
        Assert.True(double.IsNaN(log.ToPixel(0)));
        Assert.True(double.IsNaN(log.ToPixel(-1)));
        Assert.True(double.IsNaN(linear.ToPixel(double.NaN)));
    }
}
