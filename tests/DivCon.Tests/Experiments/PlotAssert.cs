using System.Text.Json;
using DivCon.Reporting.Plotting;

namespace DivCon.Tests.Experiments;

/// <summary>Checks shared by the plot tests: a PNG is real, and a drawn series equals the numbers of a result file.</summary>
internal static class PlotAssert
{
    private static readonly byte[] s_signature = [137, 80, 78, 71, 13, 10, 26, 10];

    /// <summary>The file is a PNG (signature), of a non-trivial size, that decodes to the default figure size.</summary>
    public static void ValidPng(string path)
    {
        Assert.True(File.Exists(path), $"{path} was not written");
        byte[] bytes = File.ReadAllBytes(path);
        Assert.True(bytes.AsSpan(0, 8).SequenceEqual(s_signature), $"{path} has no PNG signature");
        Assert.True(bytes.Length > 5_000, $"{path} is only {bytes.Length} bytes");
        using var image = SkiaSharp.SKBitmap.Decode(bytes);
        Assert.Equal(Figure.DefaultWidth, image.Width);
        Assert.Equal(Figure.DefaultHeight, image.Height);
    }

    /// <summary>The figure model written beside a PNG (<c>{stem}.plot.json</c>), read back.</summary>
    public static T Model<T>(string folder, string stem) where T : Figure
    {
        ValidPng(Path.Combine(folder, $"{stem}.png"));
        return Assert.IsType<T>(Figure.FromJson(File.ReadAllText(Path.Combine(folder, $"{stem}.plot.json"))));
    }

    /// <summary>Equal as plotted numbers: NaN (nothing drawn) matches null / NaN, otherwise to 12 digits.</summary>
    public static void Same(double expected, double actual, string what)
    {
        if (double.IsNaN(expected))
        {
            Assert.True(double.IsNaN(actual), $"{what}: expected nothing drawn, got {actual}");
        }
        else
        {
            Assert.True(Math.Abs(expected - actual) <= 1e-12 * Math.Max(1, Math.Abs(expected)), $"{what}: expected {expected}, got {actual}");
        }
    }

    public static double Number(JsonElement e, string name) =>
        e.ValueKind == JsonValueKind.Object && e.TryGetProperty(name, out JsonElement v) && v.ValueKind == JsonValueKind.Number ? v.GetDouble() : double.NaN;

    public static (double Mean, double Minus, double Plus) MeanCi(JsonElement sample)
    {
        double mean = Number(sample, "mean");
        if (sample.ValueKind == JsonValueKind.Object && sample.TryGetProperty("ci99", out JsonElement ci) && ci.ValueKind == JsonValueKind.Object)
        {
            return (mean, mean - ci.GetProperty("lower").GetDouble(), ci.GetProperty("upper").GetDouble() - mean);
        }

        return (mean, double.NaN, double.NaN);
    }
}
