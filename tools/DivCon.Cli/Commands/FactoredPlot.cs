using DivCon.Harness.Factored;
using DivCon.Reporting.Plotting;

namespace DivCon.Cli.Commands;

/// <summary>
/// The factored speedup plot of one program, after seed 001 Figure 2: speedup against workers P with, top to bottom,
/// linear, maximal, idle-time-specific, inflation-specific and actual speedups, plus the elision curve (seed 000
/// §2.8, above maximal when scheduling costs matter). Both axes log2, so equal gaps mean equal factors lost. Every
/// curve is a series whose points are exactly the numbers of <c>factored.json</c>.
/// </summary>
internal static class FactoredPlot
{
    /// <summary>Series names in the figure, keyed by the JSON curve name.</summary>
    public static readonly IReadOnlyDictionary<string, string> SeriesNames = new Dictionary<string, string>
    {
        ["linear"] = "linear",
        ["maximal"] = "maximal",
        ["idleSpecific"] = "idle-time specific",
        ["inflationSpecific"] = "inflation specific",
        ["actual"] = "actual",
        ["elision"] = "elision",
    };

    public static LinePlot Build(FactoredProgramResult program, string size)
    {
        ArgumentNullException.ThrowIfNull(program);
        var plot = new LinePlot($"Factored speedups: {program.Program} ({size})", "Workers P", "Speedup over T_s");
        plot.XAxis.Scale = AxisScale.Log2;
        plot.YAxis.Scale = AxisScale.Log2;
        double[] p = program.Points.Select(x => x.P).ToArray();
        var grey = new PlotColor(110, 110, 110);
        foreach (string curve in FactoredSpeedups.Names)
        {
            double[] y = program.Points.Select(x => x.Speedups.Get(curve) ?? double.NaN).ToArray();
            if (curve == "elision" && program.Telision is null)
            {
                continue;
            }

            string name = SeriesNames[curve];
            switch (curve)
            {
                case "linear":
                    plot.AddSeries(name, p, y, MarkerShape.None, LinePattern.Dashed, grey);
                    break;
                case "elision":
                    plot.AddSeries(name, p, y, MarkerShape.Diamond, LinePattern.Dotted, Palette.Get(4));
                    break;
                default:
                    int index = Array.IndexOf(["maximal", "idleSpecific", "inflationSpecific", "actual"], curve);
                    plot.AddSeries(name, p, y, (MarkerShape)(index + 1), LinePattern.Solid, Palette.Get(index));
                    break;
            }
        }

        return plot;
    }
}
