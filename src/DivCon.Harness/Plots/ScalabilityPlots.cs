using DivCon.Harness.Experiments;
using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>
/// The figures of a <c>scalability.json</c> (thesis Figures 7.3–7.4): speedup vs cores per program for each processor
/// selection (<c>speedup-contiguous</c>, <c>speedup-dispersed</c>), and, when both were measured, both on one figure
/// (<c>speedup-contiguous-vs-dispersed</c>: contiguous solid, dispersed dashed). Points are the file's <c>speedup</c>
/// values; the dashed grey line is linear speedup.
/// </summary>
public static class ScalabilityPlots
{
    /// <summary>The figures of a scalability result.</summary>
    public static IReadOnlyList<NamedFigure> Of(ScalabilityResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        IReadOnlyList<ScalabilityProgramResult> programs = result.Programs;
        string[] selections = programs.SelectMany(p => p.Curves.Select(c => ScalabilityResult.Name(c.Selection))).Distinct().ToArray();
        var figures = new List<NamedFigure>();
        foreach (string selection in selections)
        {
            LinePlot plot = NewPlot($"Speedup vs cores ({selection} allocation)");
            foreach (ScalabilityProgramResult program in programs)
            {
                if (Curve(program, selection) is { } c)
                {
                    plot.AddSeries(program.Program, c.P, c.Speedup);
                }
            }

            figures.Add(new NamedFigure($"speedup-{CyclicPlots.Slug(selection)}", FromZero(plot)));
        }

        if (selections.Contains("contiguous") && selections.Contains("dispersed"))
        {
            LinePlot plot = NewPlot("Speedup vs cores: contiguous (solid) vs dispersed (dashed)");
            int k = 0;
            foreach (ScalabilityProgramResult program in programs)
            {
                string name = program.Program;
                PlotColor color = Palette.Get(k++);
                if (Curve(program, "contiguous") is { } c)
                {
                    plot.AddSeries($"{name} contiguous", c.P, c.Speedup, MarkerShape.Circle, LinePattern.Solid, color);
                }

                if (Curve(program, "dispersed") is { } d)
                {
                    plot.AddSeries($"{name} dispersed", d.P, d.Speedup, MarkerShape.Square, LinePattern.Dashed, color);
                }
            }

            figures.Add(new NamedFigure("speedup-contiguous-vs-dispersed", FromZero(plot)));
        }

        return figures;
    }

    private static LinePlot NewPlot(string title)
    {
        var plot = new LinePlot(title, "Cores P", "Speedup T_s / T_P");
        plot.XAxis.IntegerTicks = true;
        plot.AddReferenceLine(ReferenceLine.Identity("linear"));
        return plot;
    }

    // As in Figures 7.3–7.4: both axes from 0 (x from 1) up to at least the largest P, so the linear line is visible.
    private static LinePlot FromZero(LinePlot plot)
    {
        double maxP = plot.Series.SelectMany(s => s.X).Where(double.IsFinite).DefaultIfEmpty(1).Max();
        double maxY = plot.Series.SelectMany(s => s.Y).Where(double.IsFinite).DefaultIfEmpty(1).Max();
        plot.XAxis.SetLimits(maxP > 1 ? 1 : 0.5, maxP > 1 ? maxP : 1.5);
        plot.YAxis.SetLimits(0, Math.Max(maxP, maxY) * 1.05);
        return plot;
    }

    private static (double[] P, double[] Speedup)? Curve(ScalabilityProgramResult program, string selection) =>
        program.Curves.FirstOrDefault(c => ScalabilityResult.Name(c.Selection) == selection) is { Points.Count: > 0 } curve
            ? (curve.Points.Select(p => (double)p.P).ToArray(), curve.Points.Select(p => p.Speedup).ToArray())
            : null;
}
