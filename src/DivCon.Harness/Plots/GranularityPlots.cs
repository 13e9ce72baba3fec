using DivCon.Harness.Experiments;
using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>
/// The figures of a <c>granularity.json</c> (thesis Figures 7.1–7.2): mean run time vs the granularity ratio's
/// divisor (problem size / granularity, about the number of execute muscles; log2 axis), one line per program with 99 %
/// error bars; <c>granularity</c> has a log10 time axis (Figure 7.1), <c>granularity-linear</c> a linear one
/// (Figure 7.2).
/// </summary>
public static class GranularityPlots
{
    /// <summary>The figures of a granularity result.</summary>
    public static IReadOnlyList<NamedFigure> Of(GranularityResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        GranularityProgramResult[] programs = result.Programs.Where(p => p.Points.Count > 0).ToArray();
        if (programs.Length == 0)
        {
            return [];
        }

        int cores = result.Settings.Processors.Count;
        return
        [
            new NamedFigure("granularity", Plot(programs, AxisScale.Log10, $"Execution time vs granularity ({cores} cores)")),
            new NamedFigure("granularity-linear", Plot(programs, AxisScale.Linear, $"Execution time vs granularity ({cores} cores, linear time axis)")),
        ];
    }

    private static LinePlot Plot(GranularityProgramResult[] programs, AxisScale timeScale, string title)
    {
        var plot = new LinePlot(title, "Problem size / granularity (about the execute muscles)", "Time (s)");
        plot.XAxis.Scale = AxisScale.Log2;
        plot.YAxis.Scale = timeScale;
        foreach (GranularityProgramResult program in programs)
        {
            var stats = program.Points.Select(p => CyclicPlots.MeanAndCi(p.Time.Summary.Mean, p.Time.Summary.Ci99)).ToArray();
            plot.AddSeries(program.Program, [.. program.Points.Select(p => (double)p.Divisor)], [.. stats.Select(s => s.Mean)],
                errorMinus: [.. stats.Select(s => s.Minus)], errorPlus: [.. stats.Select(s => s.Plus)]);
        }

        // Figure 7.2 shows the region of best times: the linear axis spans the means from 0 (wide 99 % intervals from
        // few runs are cut at the frame instead of squashing every line flat).
        double top = plot.Series.SelectMany(s => s.Y).Where(double.IsFinite).DefaultIfEmpty(0).Max();
        if (timeScale == AxisScale.Linear && top > 0)
        {
            plot.YAxis.SetLimits(0, top * 1.25);
        }

        return plot;
    }
}
