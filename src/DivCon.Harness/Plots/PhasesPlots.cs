using System.Globalization;
using System.Text.Json;
using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>
/// The figures of a <c>phases.json</c> (thesis Figure 7.5): per program (<c>phases-{program}</c>), a stacked bar per
/// recursion level of the cumulative split, execute and merge seconds per run, as in the file; and the same numbers as
/// lines on a log10 axis (<c>phases-{program}-log</c>), as in the thesis.
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

            // Figure 7.5's logarithmic view, where the small split and merge times stay visible (a zero is not drawn).
            var log = new LinePlot($"Cumulative time per D&C phase: {name} (log scale)", "Recursion level", "Cumulative time per run (s)");
            log.XAxis.IntegerTicks = true;
            log.YAxis.Scale = AxisScale.Log10;
            double[] x = levels.Select(l => ResultJson.Number(l, "level")).ToArray();
            foreach (string phase in Phases)
            {
                log.AddSeries(phase, x, levels.Select(l => ResultJson.Number(ResultJson.Property(l, phase), "seconds")).ToArray());
            }

            figures.Add(new NamedFigure($"phases-{ResultJson.Slug(name)}-log", log));
        }

        return figures;
    }
}
