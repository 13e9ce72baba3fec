namespace DivCon.Harness.Plots;

/// <summary>The files of a result's figures: each <c>{name}.png</c> with its figure model <c>{name}.plot.json</c> beside it.</summary>
public static class ResultPlots
{
    /// <summary>The files of <paramref name="figures"/>.</summary>
    public static IReadOnlyList<(string Name, byte[] Content)> Render(IEnumerable<NamedFigure> figures) =>
        [.. figures.SelectMany(f => new[]
        {
            ($"{f.Name}.png", f.Figure.RenderPng()), ($"{f.Name}.plot.json", System.Text.Encoding.UTF8.GetBytes(f.Figure.ToJson())),
        })];
}
