using System.Text.Json;
using DivCon.Reporting.Plotting;

namespace DivCon.Harness.Plots;

/// <summary>
/// The figures of a <c>cyclic.json</c> / <c>symmetric.json</c> (thesis Figures 7.6, 7.8–7.15): NTT and NP per program
/// per scheme with 99 % error bars, and ANTT and STP per scheme (plus MNTT per scheme for a symmetric test). Every bar
/// is a <c>mean</c> of the file and every error bar its <c>ci99</c> (absent interval → no error bar).
/// </summary>
public static class CyclicPlots
{
    /// <summary>Builds the figures from the root of a cyclic or symmetric result file.</summary>
    public static IReadOnlyList<NamedFigure> FromJson(JsonElement root)
    {
        string kind = ResultJson.Text(root, "kind");
        bool symmetric = kind == "symmetric";
        JsonElement[] schemes = ResultJson.Array(root, "schemes").ToArray();
        if (schemes.Length == 0)
        {
            return [];
        }

        string workload = string.Join(", ", ResultJson.Array(ResultJson.Property(root, "configuration"), "programs")
            .Where(p => p.ValueKind == JsonValueKind.String).Select(p => p.GetString()));
        string[] programs = schemes.SelectMany(s => ResultJson.Array(s, "programs").Select(p => ResultJson.Text(p, "program"))).Distinct().ToArray();
        string[] bases = programs.Select(p => p.Split('#')[0]).Distinct().ToArray();
        string caption = symmetric
            ? (bases.Length == 1 ? $"symmetric test ({programs.Length} x {bases[0]})" : $"symmetric test ({workload})")
            : $"{programs.Length}-program workload";
        workload = symmetric && bases.Length == 1 ? $"{programs.Length} x {bases[0]}" : workload;
        var figures = new List<NamedFigure>
        {
            new("ntt", PerProgram(schemes, programs, "ntt", $"NTT of the {caption} (lower is better)", "NTT", 1)),
            new("np", PerProgram(schemes, programs, "np", $"NP of the {caption} (higher is better)", "NP", 1)),
            new("antt", PerScheme(schemes, "antt", $"ANTT of the {caption} (lower is better)", "ANTT", symmetric ? workload : "ANTT")),
            new("stp", PerScheme(schemes, "stp", $"STP of the {caption} (higher is better)", "STP", symmetric ? workload : "STP")),
        };
        if (symmetric)
        {
            figures.Add(new("mntt", PerScheme(schemes, "mntt", $"MNTT of the {caption} (lower is better)", "MNTT", workload)));
        }

        return figures;
    }

    private static BarChart PerProgram(JsonElement[] schemes, string[] programs, string metric, string title, string yLabel, double reference)
    {
        var chart = new BarChart(title, programs, "Program", yLabel);
        foreach (JsonElement scheme in schemes)
        {
            var values = new double[programs.Length];
            var minus = new double[programs.Length];
            var plus = new double[programs.Length];
            Array.Fill(values, double.NaN);
            Array.Fill(minus, double.NaN);
            Array.Fill(plus, double.NaN);
            foreach (JsonElement p in ResultJson.Array(scheme, "programs"))
            {
                int i = Array.IndexOf(programs, ResultJson.Text(p, "program"));
                (values[i], minus[i], plus[i]) = ResultJson.MeanAndCi(ResultJson.Property(p, metric));
            }

            chart.AddSeries(ResultJson.Text(scheme, "scheme"), values, minus, plus);
        }

        chart.AddHorizontalLine(reference, $"{yLabel} = {reference}");
        FromZero(chart, reference);
        return chart;
    }

    private static BarChart PerScheme(JsonElement[] schemes, string metric, string title, string yLabel, string group)
    {
        var chart = new BarChart(title, [group], "Scheme", yLabel);
        foreach (JsonElement scheme in schemes)
        {
            var (mean, minus, plus) = ResultJson.MeanAndCi(ResultJson.Property(scheme, metric));
            chart.AddSeries(ResultJson.Text(scheme, "scheme"), [mean], [minus], [plus]);
        }

        FromZero(chart, 0);
        return chart;
    }

    // These metrics are positive: the axis starts at 0 and a lower interval bound below it (wide intervals from few
    // repetitions) is cut there rather than stretching the axis into meaningless negative values.
    private static void FromZero(BarChart chart, double atLeast)
    {
        double top = atLeast;
        foreach (var s in chart.Series)
        {
            for (int i = 0; i < s.Values.Count; i++)
            {
                double v = s.Values[i];
                double plus = s.ErrorPlus is { } e && double.IsFinite(e[i]) ? e[i] : 0;
                if (double.IsFinite(v))
                {
                    top = Math.Max(top, v + plus);
                }
            }
        }

        if (top > 0)
        {
            chart.YAxis.SetLimits(0, top * 1.05);
        }
    }
}
