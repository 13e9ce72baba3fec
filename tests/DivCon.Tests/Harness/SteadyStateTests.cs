using DivCon.Harness.Cyclic;

namespace DivCon.Tests.Harness;

public sealed class SteadyStateTests
{
    [Theory]
    // runs so far, min warm-up 1, window 3, CV ≤ 5 %, at most 2 extra runs
    [InlineData(new double[0], SteadyState.Decision.Continue)]
    [InlineData(new[] { 9.0, 1, 1 }, SteadyState.Decision.Continue)]            // the first run never counts
    [InlineData(new[] { 9.0, 1, 1, 1 }, SteadyState.Decision.Steady)]          // CV 0
    [InlineData(new[] { 9.0, 2, 1, 1 }, SteadyState.Decision.Continue)]        // CV of {2, 1, 1} = 35 %
    [InlineData(new[] { 9.0, 2, 1, 1, 1 }, SteadyState.Decision.Steady)]       // the slow run left the window
    [InlineData(new[] { 9.0, 1, 2, 1, 2 }, SteadyState.Decision.Continue)]     // 4 counted: 1 extra of 2
    [InlineData(new[] { 9.0, 1, 2, 1, 2, 1 }, SteadyState.Decision.Capped)]    // 5 counted = window + 2: stop, not steady
    [InlineData(new[] { 9.0, 1, 1.04, 0.98 }, SteadyState.Decision.Steady)]    // CV 3.1 %
    public void Decide_TableOfCases(double[] runs, SteadyState.Decision expected)
    {
        Assert.Equal(expected, SteadyState.Decide(runs, minWarmup: 1, window: 3, maxCv: 0.05, maxExtra: 2));
    }

    [Fact]
    public void WindowCv_IsTheSampleCvOfTheLastRuns()
    {
        // {1, 2, 3}: mean 2, sd 1 → 0.5; the earlier 100 is outside the window.
        Assert.Equal(0.5, SteadyState.WindowCv([100.0, 1, 2, 3], 3)!.Value, 12);
        Assert.Null(SteadyState.WindowCv([1.0, 2], 3));
        Assert.Equal(0, SteadyState.WindowCv([5.0], 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => SteadyState.Decide([1.0], 0, 0, 0.05, 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => SteadyState.Decide([1.0], 0, 1, 0, 1));
    }
}
