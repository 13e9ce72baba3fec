using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>A figure and the file stem it is written under (<c>{Name}.png</c>, <c>{Name}.plot.json</c>).</summary>
public sealed record NamedFigure(string Name, Figure Figure)
{
    /// <summary>The files of <paramref name="figures"/>: each <c>{name}.png</c> with its figure model <c>{name}.plot.json</c> beside it.</summary>
    public static IReadOnlyList<(string Name, byte[] Content)> Files(IEnumerable<NamedFigure> figures) =>
        [.. figures.SelectMany(f => new[]
        {
            ($"{f.Name}.png", f.Figure.RenderPng()), ($"{f.Name}.plot.json", System.Text.Encoding.UTF8.GetBytes(f.Figure.ToJson())),
        })];
}
