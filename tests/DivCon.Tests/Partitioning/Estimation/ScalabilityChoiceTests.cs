using DivCon.Partitioning;
using DivCon.Partitioning.Estimation;

namespace DivCon.Tests.Partitioning.Estimation;

public sealed class ScalabilityChoiceTests
{
    private static readonly ScalabilityEstimate s_confident = new(true, 12, 6, 8, 0.05, 0.001, true, 0.1, 0.8, 500, 2);
    private static readonly ScalabilityTable s_estimatedTable = new([(1, 1.0), (8, 6.0), (16, 12.0)]);

    [Fact]
    public void UserNumber_Wins()
    {
        ScalabilityChoice c = ScalabilityChoice.Choose(3.0, null, s_confident, s_estimatedTable, 16);
        Assert.Equal(new ScalabilityChoice(3.0, null, ScalabilitySource.User), c);
    }

    [Fact]
    public void UserTable_Wins_WithItsSpeedupOnAllCores()
    {
        var table = new ScalabilityTable([(1, 1.0), (16, 4.0)]);
        ScalabilityChoice c = ScalabilityChoice.Choose(null, table, s_confident, s_estimatedTable, 16);
        Assert.Equal(new ScalabilityChoice(4.0, table, ScalabilitySource.User), c);
    }

    [Theory]
    [InlineData(0.0, 0.0, ScalabilitySource.Online)]
    [InlineData(0.8, 0.5, ScalabilitySource.Online)]
    [InlineData(0.5, 0.5, ScalabilitySource.Online)]
    [InlineData(0.49, 0.5, ScalabilitySource.Default)]
    [InlineData(0.9, 0.95, ScalabilitySource.Default)]
    public void Estimate_UsedOnlyWhenConfidentEnough(double confidence, double minimum, ScalabilitySource expected)
    {
        ScalabilityChoice c = ScalabilityChoice.Choose(null, null, s_confident with { Confidence = confidence }, s_estimatedTable, 16, 1.0, minimum);
        Assert.Equal(expected, c.Source);
        Assert.Equal(expected == ScalabilitySource.Online ? 12 : 1.0, c.Scalability);
        Assert.Equal(expected == ScalabilitySource.Online ? s_estimatedTable : null, c.Table);
    }

    [Fact]
    public void NoEstimate_GivesTheDefault()
    {
        ScalabilityChoice c = ScalabilityChoice.Choose(null, null, default, null, 16, 2.0);
        Assert.Equal(new ScalabilityChoice(2.0, null, ScalabilitySource.Default), c);
    }

    [Fact]
    public void BadNumbers_Throw()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => ScalabilityChoice.Choose(0.0, null, s_confident, null, 16));
        Assert.Throws<ArgumentOutOfRangeException>(() => ScalabilityChoice.Choose(null, null, s_confident, null, 16, -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => ScalabilityChoice.Choose(null, null, s_confident, null, 16, 1, 2));
        Assert.Throws<ArgumentOutOfRangeException>(() => ScalabilityChoice.Choose(null, null, s_confident, null, 0));
    }
}
