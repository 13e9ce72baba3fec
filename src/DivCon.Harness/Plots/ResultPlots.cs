using System.Text.Json;

namespace DivCon.Harness.Plots;

/// <summary>
/// Every figure of a saved result file, chosen by its <c>kind</c>: the one code path both the experiment commands
/// (drawing from the JSON they have just written) and <c>divcon plot --from</c> use, so a redraw equals the original.
/// </summary>
public static class ResultPlots
{
    /// <summary>The kinds this build can draw.</summary>
    public static IReadOnlyList<string> Kinds { get; } = ["cyclic", "symmetric", "scalability", "granularity", "phases", "factored"];

    /// <summary>The figures of <paramref name="json"/>.</summary>
    /// <exception cref="JsonException">Not JSON.</exception>
    /// <exception cref="ArgumentException">No <c>kind</c>, or one this build cannot draw (the message lists the ones it can).</exception>
    public static IReadOnlyList<NamedFigure> FromJson(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        using JsonDocument doc = JsonDocument.Parse(json);
        JsonElement root = doc.RootElement;
        string kind = ResultJson.Text(root, "kind");
        return kind switch
        {
            "cyclic" or "symmetric" => CyclicPlots.FromJson(root),
            "scalability" => ScalabilityPlots.FromJson(root),
            "granularity" => GranularityPlots.FromJson(root),
            "phases" => PhasesPlots.FromJson(root),
            "factored" => FactoredPlots.FromJson(root),
            "" => throw new ArgumentException($"The file has no \"kind\"; expected a result file of kind {string.Join(", ", Kinds)}."),
            _ => throw new ArgumentException($"Cannot plot results of kind '{kind}'; known kinds: {string.Join(", ", Kinds)}."),
        };
    }

    /// <summary>The files of <paramref name="figures"/>: <c>{name}.png</c> and the figure model <c>{name}.plot.json</c>.</summary>
    public static IReadOnlyList<(string Name, byte[] Content)> Render(IEnumerable<NamedFigure> figures)
    {
        ArgumentNullException.ThrowIfNull(figures);
        var files = new List<(string, byte[])>();
        foreach (NamedFigure f in figures)
        {
            files.Add(($"{f.Name}.png", f.Figure.RenderPng()));
            files.Add(($"{f.Name}.plot.json", System.Text.Encoding.UTF8.GetBytes(f.Figure.ToJson())));
        }

        return files;
    }
}
