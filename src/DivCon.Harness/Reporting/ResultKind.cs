using System.Text;
using System.Text.Json.Serialization.Metadata;
using DivCon.Harness.Plots;
using DivCon.Metrics.Results;

namespace DivCon.Harness.Reporting;

/// <summary>
/// Everything written for a result record <typeparamref name="T"/>: <c>{kind}.json</c> (the record, by the
/// source-generated serializer), optionally <c>{kind}.csv</c> and a Markdown report, the figures (drawn from the same
/// record, which <c>divcon plot --from</c> reads back), and the table printed at the end. Adding an experiment is a
/// record, one of these, and a small command.
/// </summary>
/// <typeparam name="T">The record.</typeparam>
/// <param name="Names">The <c>kind</c> values its files carry (cyclic and symmetric share one record).</param>
/// <param name="Json">The record's serializer.</param>
/// <param name="Table">The table printed on stdout.</param>
/// <param name="Csv">The CSV beside the JSON, or null for none.</param>
/// <param name="Markdown">The Markdown report and its file name, or null for none.</param>
/// <param name="Plots">The figures, or null for none.</param>
public sealed record ResultKind<T>(
    IReadOnlyList<string> Names,
    JsonTypeInfo<T> Json,
    Func<T, string> Table,
    Func<T, CsvTable>? Csv = null,
    (string Name, Func<T, string> Write)? Markdown = null,
    Func<T, IReadOnlyList<NamedFigure>>? Plots = null)
    where T : ResultFile
{
    /// <summary>The files of <paramref name="result"/>: JSON, CSV, report, and with <paramref name="png"/> the figures.</summary>
    public IReadOnlyList<(string Name, byte[] Content)> Files(T result, bool png)
    {
        ArgumentNullException.ThrowIfNull(result);
        var files = new List<(string Name, byte[] Content)> { ($"{result.Kind}.json", ResultJson.ToUtf8(result, Json)) };
        if (Csv is not null)
        {
            files.Add(($"{result.Kind}.csv", Csv(result).ToUtf8()));
        }

        if (Markdown is { } md)
        {
            files.Add((md.Name, Encoding.UTF8.GetBytes(md.Write(result))));
        }

        if (png && Plots is not null)
        {
            files.AddRange(NamedFigure.Files(Plots(result)));
        }

        return files;
    }

    /// <summary>Reads <paramref name="json"/> back into the record, after checking its kind and schema version.</summary>
    /// <exception cref="ResultFileException">Not a file of this kind in the current schema.</exception>
    public T Read(string json) => ResultJson.Read(json, Json, [.. Names]);

    /// <summary>The figures of the result in <paramref name="json"/>, read back into its record.</summary>
    /// <exception cref="ResultFileException">Not a file of this kind in the current schema.</exception>
    public IReadOnlyList<NamedFigure> Figures(string json) => Plots is null ? [] : Plots(Read(json));
}
