using DivCon.Harness.Cyclic;
using DivCon.Harness.Experiments;
using DivCon.Harness.Factored;
using DivCon.Harness.Plots;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Reporting.Plotting;

namespace DivCon.Tests.Experiments;

/// <summary>
/// Issue 7 must-show 3 at the model level: every plotted bar, error bar and point equals a number of the result
/// record, for hand-made records of each kind (the CLI tests check the same on files the commands wrote and read back).
/// </summary>
public sealed class ResultPlotsTests
{
    private static readonly MachineInfo s_machine = new(2, [0, 1], "TestOS", ".NET test", "X64", null, null);

    private static Estimate E(double mean, double? lo = null, double? hi = null) =>
        new(mean, lo is null ? 1 : 3, null, null, lo is double l ? new ConfidenceInterval(l, hi!.Value) : null);

    private static RatioEstimate R(double mean, double? lo = null, double? hi = null) =>
        new(mean, 3, 3, RatioBasis.Invocations, null, null, null, lo is double l ? new ConfidenceInterval(l, hi!.Value) : null);

    private static BootstrapEstimate B(double mean, double? lo = null, double? hi = null) =>
        new(mean, lo is null ? 1 : 3, lo is double l ? new ConfidenceInterval(l, hi!.Value) : null);

    private static ProgramResult P(string name, RatioEstimate? ntt, RatioEstimate? np) => new(name, E(1), null, 0, 0, ntt, np);

    private static SchemeResult S(string name, BootstrapEstimate antt, BootstrapEstimate mntt, BootstrapEstimate stp, params ProgramResult[] programs) =>
        new(name, name, antt, mntt, stp, programs, [], [], []);

    // Two schemes, two programs; scheme b has no interval on anything (one repetition) and no NTT for program y.
    private static CyclicResult Cyclic(string kind = "cyclic") => new(
        new CyclicPlanRecord(kind, ["x", "y"], ["a", "b"], "sp", "small", 10, 1, 0, 1, [0, 1], 1, true, 15, 0.03, 3, 3, null, "measured"), [],
        [
            S("a", B(1.5, 1.25, 2.0), B(2.0), B(1.4, 1.0, 1.9), P("x", R(1.2, 1.0, 1.5), R(0.8333, 0.7, 0.95)), P("y", R(1.8, 1.5, 2.25), R(0.5556, 0.45, 0.6))),
            S("b", B(2.5), B(3.0), B(0.9), P("x", R(2.0), R(0.5)), P("y", null, null)),
        ],
        [], [], [], new AnalysisOptions())
    {
        StartedUtc = DateTimeOffset.UnixEpoch,
        ElapsedSeconds = 1,
        Machine = s_machine,
    };

    [Fact]
    public void Cyclic_bars_and_error_bars_are_the_results_means_and_intervals()
    {
        IReadOnlyList<NamedFigure> figures = CyclicPlots.Of(Cyclic());
        Assert.Equal(["ntt", "np", "antt", "stp"], figures.Select(f => f.Name));

        var ntt = Assert.IsType<BarChart>(figures[0].Figure);
        Assert.Equal(["x", "y"], ntt.Groups);
        Assert.Equal(["a", "b"], ntt.Series.Select(s => s.Name));
        Assert.Equal([1.2, 1.8], ntt.Series[0].Values);
        Assert.Equal(0.2, ntt.Series[0].ErrorMinus![0], 12);
        Assert.Equal(0.3, ntt.Series[0].ErrorPlus![0], 12);
        Assert.Equal(0.3, ntt.Series[0].ErrorMinus![1], 12);
        Assert.Equal(0.45, ntt.Series[0].ErrorPlus![1], 12);
        Assert.Equal(2.0, ntt.Series[1].Values[0]);
        Assert.True(double.IsNaN(ntt.Series[1].ErrorMinus![0]), "no interval → no error bar");
        Assert.True(double.IsNaN(ntt.Series[1].Values[1]), "no NTT → no bar");
        Assert.Contains(ntt.ReferenceLines, l => l.Slope == 0 && l.Intercept == 1);

        var antt = Assert.IsType<BarChart>(figures[2].Figure);
        Assert.Single(antt.Groups);
        Assert.Equal([1.5], antt.Series[0].Values);
        Assert.Equal(0.25, antt.Series[0].ErrorMinus![0], 12);
        Assert.Equal(0.5, antt.Series[0].ErrorPlus![0], 12);
        Assert.Equal([2.5], antt.Series[1].Values);

        var stp = Assert.IsType<BarChart>(figures[3].Figure);
        Assert.Equal([1.4], stp.Series[0].Values);
        Assert.Equal([0.9], stp.Series[1].Values);
    }

    [Fact]
    public void Comparisons_figures_are_the_ratios_and_simultaneous_intervals_resolved_apart()
    {
        CyclicInvocation Inv(int k, double j) => DivCon.Tests.Harness.CyclicFixtures.Invocation(k, ["a"], [[1.0]],
            [("x", [new ProgramRuns([2 + j], 0)]), ("y", [new ProgramRuns([4 + j], 0)]), ("z", [new ProgramRuns([2.1 - j], 0)])]);
        CyclicResult result = DivCon.Tests.Harness.CyclicFixtures.Result(["a"], ["x", "y", "z"], [Inv(1, 0), Inv(2, 0.1), Inv(3, -0.1), Inv(4, 0.05)]);

        IReadOnlyList<NamedFigure> figures = CyclicPlots.Of(result);

        Assert.Equal(["ntt", "np", "antt", "stp", "comparisons-antt", "comparisons-stp"], figures.Select(f => f.Name));
        var chart = Assert.IsType<BarChart>(figures[4].Figure);
        SchemeComparison[] antt = result.Comparisons.Where(c => c.Metric == "antt").ToArray();
        Assert.Equal(antt.Select(c => $"{c.SchemeA} / {c.SchemeB}"), chart.Groups);
        Assert.Equal(["resolved (Holm p < 0.01)", "not resolved"], chart.Series.Select(s => s.Name));
        for (int i = 0; i < antt.Length; i++)
        {
            BarSeries shown = chart.Series[antt[i].Resolved == true ? 0 : 1], other = chart.Series[antt[i].Resolved == true ? 1 : 0];
            Assert.Equal(antt[i].Test.Ratio, shown.Values[i], 12);
            Assert.Equal(antt[i].Test.Ratio - antt[i].FamilyCi!.Value.Lower, shown.ErrorMinus![i], 12);
            Assert.Equal(antt[i].FamilyCi!.Value.Upper - antt[i].Test.Ratio, shown.ErrorPlus![i], 12);
            Assert.True(double.IsNaN(other.Values[i]));
        }

        Assert.Contains(chart.ReferenceLines, l => l.Slope == 0 && l.Intercept == 1);
        Assert.Contains(antt, c => c.Resolved == true); // x / y: about 0.5 in every invocation
    }

    [Fact]
    public void Symmetric_adds_mntt_per_scheme()
    {
        IReadOnlyList<NamedFigure> figures = CyclicPlots.Of(Cyclic("symmetric"));
        var mntt = Assert.IsType<BarChart>(Assert.Single(figures, f => f.Name == "mntt").Figure);
        Assert.Equal([2.0], mntt.Series[0].Values);
        Assert.Equal([3.0], mntt.Series[1].Values);
    }

    [Fact]
    public void Scalability_points_are_the_results_speedups_and_both_selections_share_a_figure()
    {
        var tp = new TimedSample([1.0]);
        var result = new ScalabilityResult(Settings(), [ProcessorSelection.Contiguous, ProcessorSelection.Dispersed],
        [
            new ScalabilityProgramResult("p", 1, tp,
            [
                new ScalabilityCurve(ProcessorSelection.Contiguous, [new ScalabilityCorePoint(1, [0], true, tp, 0.9), new ScalabilityCorePoint(2, [0, 1], true, tp, 1.7)]),
                new ScalabilityCurve(ProcessorSelection.Dispersed, [new ScalabilityCorePoint(1, [0], true, tp, 0.95), new ScalabilityCorePoint(2, [0, 1], true, tp, 1.8)]),
            ]),
        ])
        {
            StartedUtc = DateTimeOffset.UnixEpoch,
            ElapsedSeconds = 1,
            Machine = s_machine,
        };

        IReadOnlyList<NamedFigure> figures = ScalabilityPlots.Of(result);
        Assert.Equal(["speedup-contiguous", "speedup-dispersed", "speedup-contiguous-vs-dispersed"], figures.Select(f => f.Name));
        var contiguous = Assert.IsType<LinePlot>(figures[0].Figure);
        Assert.Equal([1.0, 2.0], Assert.Single(contiguous.Series).X);
        Assert.Equal([0.9, 1.7], contiguous.Series[0].Y);
        var both = Assert.IsType<LinePlot>(figures[2].Figure);
        Assert.Equal([0.95, 1.8], Assert.Single(both.Series, s => s.Name == "p dispersed").Y);
        Assert.Equal(LinePattern.Dashed, both.Series.Single(s => s.Name == "p dispersed").Pattern);
    }

    [Fact]
    public void Granularity_phases_and_factored_series_are_the_results_numbers()
    {
        var coarse = new TimedSample([3.5, 4.0, 4.5]);
        var granularity = new GranularityResult(Settings(), 1,
            [new GranularityProgramResult("g", 100, coarse, [new GranularityPoint(1, 100, 0.5, coarse), new GranularityPoint(2, 50, 1, new TimedSample([2.5]))])])
        {
            StartedUtc = DateTimeOffset.UnixEpoch,
            ElapsedSeconds = 1,
            Machine = s_machine,
        };
        var time = Assert.IsType<LinePlot>(GranularityPlots.Of(granularity)[0].Figure);
        Assert.Equal(AxisScale.Log2, time.XAxis.Scale);
        Assert.Equal(AxisScale.Log10, time.YAxis.Scale);
        Assert.Equal([1.0, 2.0], time.Series[0].X);
        Assert.Equal([4.0, 2.5], time.Series[0].Y);
        Assert.Equal(4.0 - coarse.Summary.Ci99!.Value.Lower, time.Series[0].ErrorMinus![0], 12);
        Assert.Equal(coarse.Summary.Ci99!.Value.Upper - 4.0, time.Series[0].ErrorPlus![0], 12);
        Assert.True(double.IsNaN(time.Series[0].ErrorMinus![1]), "one run → no interval → no error bar");

        var phases = new PhasesResult(Settings(), 4,
            [new PhaseProgramResult("m", 100, 10, 2, coarse, [new PhaseLevel(1, 1, 0.5, 0, 0, 1, 0.25), new PhaseLevel(2, 0, 0, 2, 3.0, 0, 0)])])
        {
            StartedUtc = DateTimeOffset.UnixEpoch,
            ElapsedSeconds = 1,
            Machine = s_machine,
        };
        IReadOnlyList<NamedFigure> phaseFigures = PhasesPlots.Of(phases);
        Assert.Equal(["phases-m", "phases-m-log"], phaseFigures.Select(f => f.Name));
        var logView = Assert.IsType<LinePlot>(phaseFigures[1].Figure);
        Assert.Equal(AxisScale.Log10, logView.YAxis.Scale);
        Assert.Equal([0.5, 0.0], logView.Series.Single(s => s.Name == "split").Y);
        Assert.Equal([0.0, 3.0], logView.Series.Single(s => s.Name == "execute").Y);
        var stacked = Assert.IsType<StackedBarChart>(phaseFigures[0].Figure);
        Assert.Equal(["1", "2"], stacked.Categories);
        Assert.Equal(["split", "execute", "merge"], stacked.Segments.Select(s => s.Name));
        Assert.Equal([0.5, 0.0], stacked.Segments[0].Values);
        Assert.Equal([0.0, 3.0], stacked.Segments[1].Values);
        Assert.Equal([0.25, 0.0], stacked.Segments[2].Values);

        var samples = new FactoredSamples([1.0], [1.05],
            new Dictionary<int, IReadOnlyList<ParallelRunSample>> { [1] = [new(1.1, 0)], [2] = [new(0.6, 0.05)] });
        var factored = new FactoredResult("small", 1, new FactoredSettings([1, 2], 1, 0), [FactoredAnalysis.Analyze("f", samples)])
        {
            StartedUtc = DateTimeOffset.UnixEpoch,
            ElapsedSeconds = 1,
            Machine = s_machine,
        };
        var f = Assert.IsType<LinePlot>(Assert.Single(FactoredPlots.Of(factored)).Figure);
        FactoredProgramResult program = factored.Programs[0];
        Assert.Equal(DivCon.Metrics.Factored.FactoredSpeedups.Names.Select(FactoredPlots.SeriesName), f.Series.Select(s => s.Name));
        Assert.Equal(program.Points.Select(p => p.Speedups.Maximal), f.Series.Single(s => s.Name == "maximal").Y);
        Assert.Equal(program.Points.Select(p => p.Speedups.IdleSpecific), f.Series.Single(s => s.Name == "idle-time specific").Y);
        Assert.Equal(program.Points.Select(p => p.Speedups.Elision!.Value), f.Series.Single(s => s.Name == "elision").Y);
    }

    [Theory]
    [InlineData("{}", "no \"kind\"")]
    [InlineData("{ \"kind\": \"weather\", \"schemaVersion\": 3 }", "expected one of")]
    [InlineData("{ \"kind\": \"cyclic\", \"schemaVersion\": 1 }", "schema version 1")]
    [InlineData("{ not json", "not valid JSON")]
    public void Unknown_or_old_files_are_rejected_with_the_kinds_that_can_be_drawn(string json, string message)
    {
        var e = Assert.Throws<ResultFileException>(() => ResultKinds.Figures(json));
        Assert.Contains(message, e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Rendered_files_are_a_png_and_the_figure_model_per_figure_and_a_saved_file_redraws_the_same()
    {
        var files = NamedFigure.Files(CyclicPlots.Of(Cyclic()));
        Assert.Equal(8, files.Count);
        foreach (var (name, content) in files.Where(f => f.Name.EndsWith(".png", StringComparison.Ordinal)))
        {
            Assert.True(content.Length > 5_000, name);
            Assert.Equal(Figure.DefaultWidth, SkiaSharp.SKBitmap.Decode(content).Width);
        }

        var model = Assert.IsType<BarChart>(Figure.FromJson(System.Text.Encoding.UTF8.GetString(files.Single(f => f.Name == "ntt.plot.json").Content)));
        Assert.Equal([1.2, 1.8], model.Series[0].Values);
        string json = System.Text.Encoding.UTF8.GetString(ResultJson.ToUtf8(Cyclic(), HarnessJsonContext.Files.CyclicResult));
        var redrawn = Assert.IsType<BarChart>(ResultKinds.Figures(json)[0].Figure);
        Assert.Equal(model.Series[0].Values, redrawn.Series[0].Values);
        Assert.Equal(model.Series[0].ErrorPlus, redrawn.Series[0].ErrorPlus);
    }

    private static ExperimentSettings Settings() => new(["p"], WorkloadSize.Small, 1, 0, [0, 1], 1, TimeSpan.FromMinutes(1));
}
