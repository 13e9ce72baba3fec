using DivCon.Harness.Open;
using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>
/// The figures of an <c>open.json</c>: per scheme, the empirical CDF of the slowdown of each job class's jobs, pooled
/// over the repetitions (<c>slowdown-cdf-{scheme}</c>; x logarithmic, y the fraction of jobs at or below x).
/// </summary>
public static class OpenPlots
{
    /// <summary>The figures of an open-workload result.</summary>
    public static IReadOnlyList<NamedFigure> Of(OpenResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var figures = new List<NamedFigure>();
        foreach (string scheme in result.Schemes)
        {
            var plot = new LinePlot($"Slowdown CDF: {scheme}", "Slowdown (turnaround / time alone)", "Fraction of jobs");
            plot.XAxis.Scale = AxisScale.Log10;
            foreach (OpenClassInfo c in result.Classes)
            {
                double[] slowdowns = [.. result.Repetitions
                    .SelectMany(r => OpenAnalysis.Slowdowns(r, r.Runs.Single(run => run.Scheme == scheme), c))
                    .Order()];
                if (slowdowns.Length == 0)
                {
                    continue;
                }

                double[] fraction = [.. Enumerable.Range(1, slowdowns.Length).Select(i => i / (double)slowdowns.Length)];
                plot.AddSeries($"{c.Name} ({slowdowns.Length} jobs)", slowdowns, fraction, MarkerShape.Circle, markerSize: 2);
            }

            plot.YAxis.SetLimits(0, 1.02);
            figures.Add(new NamedFigure($"slowdown-cdf-{CyclicPlots.Slug(scheme)}", plot));
        }

        return figures;
    }
}
