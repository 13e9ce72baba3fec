using System.Text.Json;
using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>
/// The figures of a <c>factored.json</c> (issue 7 format; seed 001 Figure 2): per program (<c>factored-{program}</c>),
/// the linear, maximal, idle-time-specific, inflation-specific, actual and elision speedups vs P, each from the
/// points' <c>speedups</c> object (a null value leaves a gap; no elision curve when <c>telision</c> is null). Drawn
/// exactly as <c>divcon factored</c> draws them (log2 axes, same names, colours and patterns), so a redraw from the
/// file equals the original.
/// </summary>
public static class FactoredPlots
{
    /// <summary>The curves, in the order drawn, as named in the file.</summary>
    public static readonly IReadOnlyList<string> Curves = ["linear", "maximal", "idleSpecific", "inflationSpecific", "actual", "elision"];

    /// <summary>Series names in the figure, keyed by the file's curve name.</summary>
    public static readonly IReadOnlyDictionary<string, string> SeriesNames = new Dictionary<string, string>
    {
        ["linear"] = "linear",
        ["maximal"] = "maximal",
        ["idleSpecific"] = "idle-time specific",
        ["inflationSpecific"] = "inflation specific",
        ["actual"] = "actual",
        ["elision"] = "elision",
    };

    /// <summary>Builds the figures from the root of a factored result file.</summary>
    public static IReadOnlyList<NamedFigure> FromJson(JsonElement root)
    {
        JsonElement configuration = ResultJson.Property(root, "configuration");
        string size = ResultJson.Text(configuration, "size");
        // The stealing the runs used (issue 10), when the file records it: "size, stealing scope/groups".
        JsonElement stealing = ResultJson.Property(configuration, "stealing");
        string scope = ResultJson.Text(stealing, "scope");
        string label = scope.Length == 0 ? size : $"{size}, stealing {scope}/{ResultJson.Text(stealing, "groups")}";
        var figures = new List<NamedFigure>();
        foreach (JsonElement program in ResultJson.Array(root, "programs"))
        {
            JsonElement[] points = ResultJson.Array(program, "points").ToArray();
            if (points.Length == 0)
            {
                continue;
            }

            string name = ResultJson.Text(program, "program");
            var plot = new LinePlot($"Factored speedups: {name} ({label})", "Workers P", "Speedup over T_s");
            plot.XAxis.Scale = AxisScale.Log2;
            plot.YAxis.Scale = AxisScale.Log2;
            double[] p = points.Select(pt => ResultJson.Number(pt, "p")).ToArray();
            var grey = new PlotColor(110, 110, 110);
            foreach (string curve in Curves)
            {
                if (curve == "elision" && double.IsNaN(ResultJson.Number(program, "telision")))
                {
                    continue;
                }

                double[] y = points.Select(pt => ResultJson.Number(ResultJson.Property(pt, "speedups"), curve)).ToArray();
                string series = SeriesNames[curve];
                switch (curve)
                {
                    case "linear":
                        plot.AddSeries(series, p, y, MarkerShape.None, LinePattern.Dashed, grey);
                        break;
                    case "elision":
                        plot.AddSeries(series, p, y, MarkerShape.Diamond, LinePattern.Dotted, Palette.Get(4));
                        break;
                    default:
                        int index = Array.IndexOf(["maximal", "idleSpecific", "inflationSpecific", "actual"], curve);
                        plot.AddSeries(series, p, y, (MarkerShape)(index + 1), LinePattern.Solid, Palette.Get(index));
                        break;
                }
            }

            figures.Add(new NamedFigure($"factored-{ResultJson.Slug(name)}", plot));
        }

        return figures;
    }
}
