using DivCon.Harness.Plots;

namespace DivCon.Harness.Reporting;

/// <summary>A kind of result file, whatever its record: what <c>divcon plot --from</c> needs to redraw one.</summary>
public interface IResultKind
{
    /// <summary>The <c>kind</c> values its files carry (cyclic and symmetric share one record).</summary>
    IReadOnlyList<string> Names { get; }

    /// <summary>The figures of the result in <paramref name="json"/>, read back into its record.</summary>
    /// <exception cref="Metrics.Results.ResultFileException">Not a file of this kind in the current schema.</exception>
    IReadOnlyList<NamedFigure> Figures(string json);
}
