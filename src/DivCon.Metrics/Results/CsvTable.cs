using System.Globalization;
using System.Text;

namespace DivCon.Metrics.Results;

/// <summary>
/// The one CSV writer of every result: a header, then rows, RFC 4180 escaping (a field holding a comma, quote, CR or
/// LF is quoted and its quotes doubled), invariant culture, numbers in round-trip form, an empty cell for a missing or
/// non-finite number, <c>\n</c> between records.
/// </summary>
public sealed class CsvTable
{
    private readonly StringBuilder _text = new();
    private readonly int _columns;

    /// <summary>Starts a table with the column names <paramref name="header"/>.</summary>
    public CsvTable(params string[] header)
    {
        ArgumentNullException.ThrowIfNull(header);
        _columns = header.Length;
        Append(header);
    }

    /// <summary>Adds a row; it must have one cell per column.</summary>
    /// <exception cref="ArgumentException">The row has another number of cells.</exception>
    public CsvTable Row(params object?[] cells)
    {
        ArgumentNullException.ThrowIfNull(cells);
        if (cells.Length != _columns)
        {
            throw new ArgumentException($"A row needs {_columns} cells; got {cells.Length}.", nameof(cells));
        }

        Append(cells);
        return this;
    }

    /// <summary>The CSV text.</summary>
    public override string ToString() => _text.ToString();

    /// <summary>The CSV as UTF-8 bytes.</summary>
    public byte[] ToUtf8() => Encoding.UTF8.GetBytes(_text.ToString());

    private void Append(IEnumerable<object?> cells) => _text.AppendJoin(',', cells.Select(Cell)).Append('\n');

    // One cell as written: quoted when it holds a comma, quote, CR or LF, with its quotes doubled (RFC 4180).
    private static string Cell(object? value)
    {
        string field = value switch
        {
            null => string.Empty,
            double d => double.IsFinite(d) ? d.ToString("R", CultureInfo.InvariantCulture) : string.Empty,
            bool b => b ? "true" : "false",
            IFormattable x => x.ToString(null, CultureInfo.InvariantCulture),
            _ => value.ToString() ?? string.Empty,
        };
        return field.AsSpan().IndexOfAny(",\"\r\n") >= 0 ? "\"" + field.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"" : field;
    }
}
