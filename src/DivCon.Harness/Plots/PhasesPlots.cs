using System.Globalization;
using DivCon.Harness.Experiments;
using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>
/// The figures of a <c>phases.json</c> (thesis Figure 7.5): per program (<c>phases-{program}</c>), a stacked bar per
/// recursion level of the cumulative split, execute and merge seconds per run, as in the file; and the same numbers as
/// lines on a log10 axis (<c>phases-{program}-log</c>), as in the thesis.
/// </summary>
public static class PhasesPlots
{
    // The segments, bottom to top, and where a level keeps each one's seconds.
    private static readonly (string Name, Func<PhaseLevel, double> Seconds)[] s_phases =
        [("split", l => l.SplitSeconds), ("execute", l => l.ExecuteSeconds), ("merge", l => l.MergeSeconds)];

    /// <summary>The figures of a phases result.</summary>
    public static IReadOnlyList<NamedFigure> Of(PhasesResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var figures = new List<NamedFigure>();
        foreach (PhaseProgramResult program in result.Programs.Where(p => p.Levels.Count > 0))
        {
            IReadOnlyList<PhaseLevel> levels = program.Levels;
            string name = program.Program;
            string[] categories = levels.Select(l => l.Level.ToString(CultureInfo.InvariantCulture)).ToArray();
            var chart = new StackedBarChart($"Cumulative time per D&C phase: {name}", categories, "Recursion level", "Cumulative time per run (s)");
            foreach (var (phase, seconds) in s_phases)
            {
                chart.AddSegment(phase, levels.Select(seconds).ToArray());
            }

            figures.Add(new NamedFigure($"phases-{CyclicPlots.Slug(name)}", chart));

            // Figure 7.5's logarithmic view, where the small split and merge times stay visible (a zero is not drawn).
            var log = new LinePlot($"Cumulative time per D&C phase: {name} (log scale)", "Recursion level", "Cumulative time per run (s)");
            log.XAxis.IntegerTicks = true;
            log.YAxis.Scale = AxisScale.Log10;
            double[] x = levels.Select(l => (double)l.Level).ToArray();
            foreach (var (phase, seconds) in s_phases)
            {
                log.AddSeries(phase, x, levels.Select(seconds).ToArray());
            }

            figures.Add(new NamedFigure($"phases-{CyclicPlots.Slug(name)}-log", log));
        }

        return figures;
    }
}
