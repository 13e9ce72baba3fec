using DivCon.Harness.Cyclic;
using DivCon.Metrics.Statistics;
using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>
/// The figures of a <c>cyclic.json</c> / <c>symmetric.json</c> (thesis Figures 7.6, 7.8–7.15): NTT and NP per program
/// per scheme with 99 % error bars (Fieller), and ANTT and STP per scheme (plus MNTT per scheme for a symmetric test)
/// with 99 % percentile bootstrap error bars over the invocations. Every bar is a value of the result and every error
/// bar its interval (absent interval, as with one invocation, → no error bar). With two or more invocations and at most
/// <see cref="MaxComparisonsPlotted"/> comparisons per metric (use <c>--baseline</c> with many schemes), one figure per
/// compared metric (<c>comparisons-antt</c>, <c>comparisons-stp</c>) shows each comparison's ratio with its simultaneous
/// interval, resolved ones apart.
/// </summary>
public static class CyclicPlots
{
    /// <summary>The figures of a cyclic or symmetric result.</summary>
    public static IReadOnlyList<NamedFigure> Of(CyclicResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        bool symmetric = result.Kind == "symmetric";
        IReadOnlyList<SchemeResult> schemes = result.Schemes;
        if (schemes.Count == 0)
        {
            return [];
        }

        string workload = string.Join(", ", result.Configuration.Programs);
        string[] programs = schemes.SelectMany(s => s.Programs.Select(p => p.Program)).Distinct().ToArray();
        string[] bases = programs.Select(p => p.Split('#')[0]).Distinct().ToArray();
        string caption = symmetric
            ? (bases.Length == 1 ? $"symmetric test ({programs.Length} x {bases[0]})" : $"symmetric test ({workload})")
            : $"{programs.Length}-program workload";
        workload = symmetric && bases.Length == 1 ? $"{programs.Length} x {bases[0]}" : workload;
        var figures = new List<NamedFigure>
        {
            new("ntt", PerProgram(schemes, programs, p => p.Ntt, $"NTT of the {caption} (lower is better)", "NTT", 1)),
            new("np", PerProgram(schemes, programs, p => p.Np, $"NP of the {caption} (higher is better)", "NP", 1)),
            new("antt", PerScheme(schemes, s => s.Antt, $"ANTT of the {caption} (lower is better)", "ANTT", symmetric ? workload : "ANTT")),
            new("stp", PerScheme(schemes, s => s.Stp, $"STP of the {caption} (higher is better)", "STP", symmetric ? workload : "STP")),
        };
        if (symmetric)
        {
            figures.Add(new("mntt", PerScheme(schemes, s => s.Mntt, $"MNTT of the {caption} (lower is better)", "MNTT", workload)));
        }

        foreach (string metric in CyclicAnalysis.ComparedMetrics)
        {
            SchemeComparison[] tested = result.Comparisons.Where(c => c.Metric == metric && c.HolmP is not null).ToArray();
            if (tested.Length > 0 && tested.Length <= MaxComparisonsPlotted)
            {
                figures.Add(new($"comparisons-{metric}", Comparisons(tested, metric, result.Invocations.Count)));
            }
        }

        return figures;
    }

    /// <summary>
    /// The most comparisons per metric a figure shows (every pair of up to 6 schemes, or 17 schemes against a baseline);
    /// more do not fit its labels, and report.md lists them all.
    /// </summary>
    public const int MaxComparisonsPlotted = 16;

    /// <summary>
    /// One bar per comparison: the ratio A / B of the metric with its simultaneous 99 % interval as the error bar, in
    /// one series for the resolved and one for the rest, and a line at 1 (no difference). The axis stops at 2: a wider
    /// interval (few invocations) runs off the top rather than flattening every other bar.
    /// </summary>
    private static BarChart Comparisons(IReadOnlyList<SchemeComparison> comparisons, string metric, int invocations)
    {
        string name = metric.ToUpperInvariant();
        var chart = new BarChart($"{name} A / B over {invocations} invocations (Holm; simultaneous 99 % intervals)",
            comparisons.Select(c => $"{c.SchemeA} / {c.SchemeB}").ToArray(), "Comparison", $"{name} ratio");
        foreach (bool resolved in new[] { true, false })
        {
            AddSeries(chart, resolved ? "resolved (Holm p < 0.01)" : "not resolved", [.. comparisons.Select(c =>
                (c.Resolved == true) == resolved ? MeanAndCi(c.Test.Ratio, c.FamilyCi) : MeanAndCi(null, null))]);
        }

        chart.AddHorizontalLine(1, "no difference");
        FromZero(chart, 1);
        if (chart.YAxis.Max > 2)
        {
            chart.YAxis.SetLimits(0, 2);
        }

        return chart;
    }

    private static BarChart PerProgram(IReadOnlyList<SchemeResult> schemes, string[] programs, Func<ProgramResult, RatioEstimate?> metric, string title, string yLabel, double reference)
    {
        var chart = new BarChart(title, programs, "Program", yLabel);
        foreach (SchemeResult scheme in schemes)
        {
            AddSeries(chart, scheme.Scheme, [.. programs.Select(name =>
                scheme.Programs.FirstOrDefault(p => p.Program == name) is { } p && metric(p) is { } r ? MeanAndCi(r.Mean, r.Ci99) : MeanAndCi(null, null))]);
        }

        chart.AddHorizontalLine(reference, $"{yLabel} = {reference}");
        FromZero(chart, reference);
        return chart;
    }

    private static BarChart PerScheme(IReadOnlyList<SchemeResult> schemes, Func<SchemeResult, BootstrapEstimate?> metric, string title, string yLabel, string group)
    {
        var chart = new BarChart(title, [group], "Scheme", yLabel);
        foreach (SchemeResult scheme in schemes)
        {
            BootstrapEstimate? e = metric(scheme);
            AddSeries(chart, scheme.Scheme, [MeanAndCi(e?.Mean, e?.Ci99)]);
        }

        FromZero(chart, 0);
        return chart;
    }

    // These metrics are positive: the axis starts at 0 and a lower interval bound below it (wide intervals from few
    // repetitions) is cut there rather than stretching the axis into meaningless negative values.
    private static void FromZero(BarChart chart, double atLeast)
    {
        double top = chart.Series.SelectMany(s => s.Values.Select((v, i) => v + (s.ErrorPlus is { } e && double.IsFinite(e[i]) ? e[i] : 0)))
            .Where(double.IsFinite).Append(atLeast).Max();
        if (top > 0)
        {
            chart.YAxis.SetLimits(0, top * 1.05);
        }
    }

    /// <summary>Adds a series of means with their intervals as error bars (<see cref="MeanAndCi"/>), one per group.</summary>
    private static void AddSeries(BarChart chart, string name, IReadOnlyList<(double Mean, double Minus, double Plus)> stats) =>
        chart.AddSeries(name, [.. stats.Select(s => s.Mean)], [.. stats.Select(s => s.Minus)], [.. stats.Select(s => s.Plus)]);

    /// <summary>A mean and its 99 % interval as distances below and above (NaN when absent: no bar, no error bar).</summary>
    internal static (double Mean, double Minus, double Plus) MeanAndCi(double? mean, ConfidenceInterval? ci) =>
        mean is not double m || !double.IsFinite(m) ? (double.NaN, double.NaN, double.NaN)
        : ci is { } c && double.IsFinite(c.Lower) && double.IsFinite(c.Upper) ? (m, Math.Max(0, m - c.Lower), Math.Max(0, c.Upper - m))
        : (m, double.NaN, double.NaN);

    /// <summary>A file-name-safe form of a program or scheme name.</summary>
    internal static string Slug(string name)
    {
        var chars = name.Select(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' ? char.ToLowerInvariant(c) : '-').ToArray();
        string slug = new string(chars).Trim('-');
        return slug.Length == 0 ? "unnamed" : slug;
    }
}
