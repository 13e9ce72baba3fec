using DivCon.Harness.Factored;
using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>
/// The figures of a <c>factored.json</c> (issue 7 format; seed 001 Figure 2): per program (<c>factored-{program}</c>),
/// the linear, maximal, idle-time-specific, inflation-specific, actual and elision speedups vs P, each from the
/// points' speedups (a missing value leaves a gap; no elision curve without T_elision), with their 99 % bootstrap
/// intervals over the rounds as error bars, on log2 axes.
/// </summary>
public static class FactoredPlots
{
    /// <summary>The series name in the figure of the file's curve <paramref name="curve"/>.</summary>
    public static string SeriesName(string curve) =>
        curve switch { "idleSpecific" => "idle-time specific", "inflationSpecific" => "inflation specific", _ => curve };

    /// <summary>The figures of a factored result.</summary>
    public static IReadOnlyList<NamedFigure> Of(FactoredResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        // The stealing the runs used (issue 10), when the file records it: "size, stealing scope/groups".
        string label = result.Stealing is { } stealing ? $"{result.Size}, stealing {stealing.Scope}/{stealing.Groups}" : result.Size;
        var figures = new List<NamedFigure>();
        foreach (FactoredProgramResult program in result.Programs.Where(p => p.Points.Count > 0))
        {
            var plot = new LinePlot($"Factored speedups: {program.Program} ({label})", "Workers P", "Speedup over T_s");
            plot.XAxis.Scale = AxisScale.Log2;
            plot.YAxis.Scale = AxisScale.Log2;
            double[] p = program.Points.Select(pt => pt.P).ToArray();
            var grey = new PlotColor(110, 110, 110);
            foreach (string curve in FactoredSpeedups.Names)
            {
                if (curve == "elision" && program.Telision is null)
                {
                    continue;
                }

                double[] y = program.Points.Select(pt => pt.Speedups.Get(curve) ?? double.NaN).ToArray();
                // 99 % bootstrap intervals over the rounds as error bars (none for linear, or without rounds).
                double[]? minus = null, plus = null;
                if (curve != "linear" && program.Points.Any(pt => pt.Ci99?.Get(curve) is not null))
                {
                    minus = program.Points.Select((pt, i) => pt.Ci99?.Get(curve) is { } c ? Math.Max(0, y[i] - c.Lower) : double.NaN).ToArray();
                    plus = program.Points.Select((pt, i) => pt.Ci99?.Get(curve) is { } c ? Math.Max(0, c.Upper - y[i]) : double.NaN).ToArray();
                }

                int index = Array.IndexOf(["maximal", "idleSpecific", "inflationSpecific", "actual"], curve);
                var (marker, pattern, color) = curve switch
                {
                    "linear" => (MarkerShape.None, LinePattern.Dashed, grey),
                    "elision" => (MarkerShape.Diamond, LinePattern.Dotted, Palette.Get(4)),
                    _ => ((MarkerShape)(index + 1), LinePattern.Solid, Palette.Get(index)),
                };
                plot.AddSeries(SeriesName(curve), p, y, marker, pattern, color, minus, plus);
            }

            figures.Add(new NamedFigure($"factored-{CyclicPlots.Slug(program.Program)}", plot));
        }

        return figures;
    }
}
