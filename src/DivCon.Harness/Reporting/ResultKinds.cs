using System.Globalization;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Experiments;
using DivCon.Harness.Factored;
using DivCon.Harness.Open;
using DivCon.Harness.Plots;
using DivCon.Metrics.Results;

namespace DivCon.Harness.Reporting;

/// <summary>The result kinds the harness writes, each with its files, table and figures.</summary>
public static class ResultKinds
{
    /// <summary><c>cyclic.json</c> and <c>symmetric.json</c> (one record), with <c>.csv</c> and <c>report.md</c>.</summary>
    public static ResultKind<CyclicResult> Cyclic { get; } = new(["cyclic", "symmetric"], HarnessJsonContext.Files.CyclicResult, CyclicTextReport.Table,
        CyclicTextReport.Csv, ("report.md", CyclicTextReport.Markdown), CyclicPlots.Of);

    /// <summary>
    /// <c>invocation.json</c>: one child process's invocation of a cyclic or symmetric test, which the parent collects
    /// (<c>divcon cyclic --repeat N</c>); nothing to plot.
    /// </summary>
    public static ResultKind<CyclicInvocationFile> Invocation { get; } = new([CyclicInvocationFile.FileKind], HarnessJsonContext.Files.CyclicInvocationFile,
        f => string.Create(CultureInfo.InvariantCulture, $"invocation {f.Invocation.Invocation}: {f.Invocation.ElapsedSeconds:0.0} s, schemes in the order {string.Join(", ", f.Invocation.SchemeOrder)}\n"));

    /// <summary><c>factored.json</c> and <c>factored.csv</c>.</summary>
    public static ResultKind<FactoredResult> Factored { get; } =
        new([FactoredResult.FileKind], HarnessJsonContext.Files.FactoredResult, FactoredTextReport.Table, FactoredTextReport.Csv, Plots: FactoredPlots.Of);

    /// <summary><c>scalability.json</c> and <c>scalability.csv</c>.</summary>
    public static ResultKind<ScalabilityResult> Scalability { get; } = new([ScalabilityResult.FileKind], HarnessJsonContext.Files.ScalabilityResult,
        ExperimentReports.Table, ExperimentReports.Csv, Plots: ScalabilityPlots.Of);

    /// <summary><c>granularity.json</c> and <c>granularity.csv</c>.</summary>
    public static ResultKind<GranularityResult> Granularity { get; } = new([GranularityResult.FileKind], HarnessJsonContext.Files.GranularityResult,
        ExperimentReports.Table, ExperimentReports.Csv, Plots: GranularityPlots.Of);

    /// <summary><c>phases.json</c> and <c>phases.csv</c>.</summary>
    public static ResultKind<PhasesResult> Phases { get; } =
        new([PhasesResult.FileKind], HarnessJsonContext.Files.PhasesResult, ExperimentReports.Table, ExperimentReports.Csv, Plots: PhasesPlots.Of);

    /// <summary><c>compare-stealing.json</c> and <c>compare-stealing.md</c>.</summary>
    public static ResultKind<CompareStealingResult> CompareStealing { get; } =
        new([CompareStealingResult.FileKind], HarnessJsonContext.Files.CompareStealingResult, CompareStealingExperiment.Markdown,
            Markdown: ("compare-stealing.md", CompareStealingExperiment.Markdown));

    /// <summary><c>open.json</c>, <c>open.csv</c> and <c>report.md</c>, with a slowdown CDF per scheme.</summary>
    public static ResultKind<OpenResult> Open { get; } =
        new([OpenResult.FileKind], HarnessJsonContext.Files.OpenResult, OpenReport.Table, OpenReport.Csv, ("report.md", OpenReport.Markdown), OpenPlots.Of);

    /// <summary>The kinds that have figures, by name.</summary>
    public static IEnumerable<string> Plotted => s_plotted.SelectMany(k => k.Names);

    // The kinds with figures, for reading a file whose kind is not known in advance.
    private static readonly (IReadOnlyList<string> Names, Func<string, IReadOnlyList<NamedFigure>> Figures)[] s_plotted =
        [(Cyclic.Names, Cyclic.Figures), (Factored.Names, Factored.Figures), (Scalability.Names, Scalability.Figures),
            (Granularity.Names, Granularity.Figures), (Phases.Names, Phases.Figures), (Open.Names, Open.Figures)];

    /// <summary>The figures of the result in <paramref name="json"/>, whatever its kind.</summary>
    /// <exception cref="ResultFileException">Not a result file this build can draw.</exception>
    public static IReadOnlyList<NamedFigure> Figures(string json)
    {
        var header = ResultJson.Header(json);
        ResultJson.CheckVersion(header, Plotted.ToArray());
        return s_plotted.First(k => k.Names.Contains(header.Kind)).Figures(json);
    }
}
