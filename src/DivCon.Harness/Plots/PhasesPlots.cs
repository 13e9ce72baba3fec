using System.Globalization;
using System.Text.Json;
using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>
/// The figures of a <c>phases.json</c> (thesis Figure 7.5): per program (<c>phases-{program}</c>), a stacked bar per
/// recursion level of the cumulative split, execute and merge seconds per run, as in the file.
/// </summary>
public static class PhasesPlots
{
    /// <summary>The segments, bottom to top, as named in the file.</summary>
    public static readonly IReadOnlyList<string> Phases = ["split", "execute", "merge"];

    /// <summary>Builds the figures from the root of a phases result file.</summary>
    public static IReadOnlyList<NamedFigure> FromJson(JsonElement root)
    {
        var figures = new List<NamedFigure>();
        foreach (JsonElement program in ResultJson.Array(root, "programs"))
        {
            JsonElement[] levels = ResultJson.Array(program, "levels").ToArray();
            if (levels.Length == 0)
            {
                continue;
            }

            string name = ResultJson.Text(program, "program");
            string[] categories = levels.Select(l => ResultJson.Number(l, "level").ToString(CultureInfo.InvariantCulture)).ToArray();
            var chart = new StackedBarChart($"Cumulative time per D&C phase: {name}", categories, "Recursion level", "Cumulative time per run (s)");
            foreach (string phase in Phases)
            {
                chart.AddSegment(phase, levels.Select(l => ResultJson.Number(ResultJson.Property(l, phase), "seconds")).ToArray());
            }

            figures.Add(new NamedFigure($"phases-{ResultJson.Slug(name)}", chart));
        }

        return figures;
    }
}
