using System.Text.Json;
using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>
/// The figures of a <c>factored.json</c> (issue 7 format; seed 001 Figure 2): per program (<c>factored-{program}</c>),
/// the linear, maximal, idle-time-specific, inflation-specific, actual and elision speedups vs P, each from the
/// points' <c>speedups</c> object (a null value leaves a gap).
/// </summary>
public static class FactoredPlots
{
    /// <summary>The curves, in the order drawn, as named in the file.</summary>
    public static readonly IReadOnlyList<string> Curves = ["linear", "maximal", "idleSpecific", "inflationSpecific", "actual", "elision"];

    /// <summary>Builds the figures from the root of a factored result file.</summary>
    public static IReadOnlyList<NamedFigure> FromJson(JsonElement root)
    {
        var figures = new List<NamedFigure>();
        foreach (JsonElement program in ResultJson.Array(root, "programs"))
        {
            JsonElement[] points = ResultJson.Array(program, "points").ToArray();
            if (points.Length == 0)
            {
                continue;
            }

            string name = ResultJson.Text(program, "program");
            var plot = new LinePlot($"Factored speedups: {name}", "Workers P", "Speedup");
            plot.XAxis.IntegerTicks = true;
            double[] p = points.Select(pt => ResultJson.Number(pt, "p")).ToArray();
            foreach (string curve in Curves)
            {
                double[] y = points.Select(pt => ResultJson.Number(ResultJson.Property(pt, "speedups"), curve)).ToArray();
                plot.AddSeries(curve, p, y, pattern: curve is "linear" or "elision" ? LinePattern.Dashed : LinePattern.Solid);
            }

            figures.Add(new NamedFigure($"factored-{ResultJson.Slug(name)}", plot));
        }

        return figures;
    }
}
