using System.Globalization;
using System.Text;

namespace DivCon.Harness.Reporting;

/// <summary>
/// A table of report cells, written as Markdown or, for the terminal, as columns padded to their widest cell (the
/// first left-aligned, the others right-aligned, two spaces apart). Cells are text; a number or date is written in the
/// invariant culture, null as an empty cell.
/// </summary>
internal sealed class TextTable
{
    private readonly List<string[]> _rows = [];
    private string _alignment;

    /// <summary>A table with the column names <paramref name="header"/>, with no alignment in Markdown (<c>---</c> under each).</summary>
    public TextTable(params string[] header)
    {
        _alignment = new string('l', header.Length);
        _rows.Add(header);
    }

    /// <summary>Sets Markdown's alignment row, one letter per column: <c>l</c> (<c>---</c>) or <c>r</c> (<c>---:</c>).</summary>
    public TextTable Align(string alignment)
    {
        if (alignment.Length != _alignment.Length || alignment.Any(a => a is not ('l' or 'r')))
        {
            throw new ArgumentException($"One 'l' or 'r' per column ({_alignment.Length}); got \"{alignment}\".", nameof(alignment));
        }

        _alignment = alignment;
        return this;
    }

    /// <summary>Adds a row of one cell per column.</summary>
    public TextTable Row(params object?[] cells)
    {
        if (cells.Length != _alignment.Length)
        {
            throw new ArgumentException($"A row needs {_alignment.Length} cells; got {cells.Length}.", nameof(cells));
        }

        _rows.Add(cells.Select(c => c is IFormattable f ? f.ToString(null, CultureInfo.InvariantCulture) : c?.ToString() ?? string.Empty).ToArray());
        return this;
    }

    /// <summary>The table as Markdown or as padded columns, each line ending in <c>\n</c>.</summary>
    public string Render(bool markdown) => markdown ? Markdown() : Text();

    /// <summary>The header, the alignment row, then the rows, each as <c>| a | b |</c>.</summary>
    public string Markdown()
    {
        var b = new StringBuilder();
        AppendMarkdownRow(b, _rows[0]);
        b.Append('|');
        foreach (char a in _alignment)
        {
            b.Append(a == 'r' ? "---:|" : "---|");
        }

        b.Append('\n');
        foreach (string[] row in _rows.Skip(1))
        {
            AppendMarkdownRow(b, row);
        }

        return b.ToString();
    }

    /// <summary>The header and the rows as columns padded to their widest cell.</summary>
    public string Text()
    {
        int[] widths = Enumerable.Range(0, _alignment.Length).Select(i => _rows.Max(r => r[i].Length)).ToArray();
        var b = new StringBuilder();
        foreach (string[] row in _rows)
        {
            b.Append(string.Join("  ", row.Select((cell, i) => i == 0 ? cell.PadRight(widths[i]) : cell.PadLeft(widths[i]))).TrimEnd()).Append('\n');
        }

        return b.ToString();
    }

    // "| a | b |", an empty cell as "| |".
    private static void AppendMarkdownRow(StringBuilder b, string[] row)
    {
        b.Append('|');
        foreach (string cell in row)
        {
            b.Append(cell.Length == 0 ? " |" : $" {cell} |");
        }

        b.Append('\n');
    }
}
