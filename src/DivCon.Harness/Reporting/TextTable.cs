using System.Diagnostics;
using System.Globalization;

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
        Debug.Assert(alignment.Length == _alignment.Length && alignment.All(a => a is 'l' or 'r'), $"One 'l' or 'r' per column; got \"{alignment}\".");
        _alignment = alignment;
        return this;
    }

    /// <summary>Adds a row of one cell per column.</summary>
    public TextTable Row(params object?[] cells)
    {
        Debug.Assert(cells.Length == _alignment.Length, $"A row needs {_alignment.Length} cells; got {cells.Length}.");
        _rows.Add(cells.Select(c => c is IFormattable f ? f.ToString(null, CultureInfo.InvariantCulture) : c?.ToString() ?? string.Empty).ToArray());
        return this;
    }

    /// <summary>The table as Markdown or as padded columns, each line ending in <c>\n</c>.</summary>
    public string Render(bool markdown) => markdown ? Markdown() : Text();

    /// <summary>The header, the alignment row, then the rows, each as <c>| a | b |</c> (an empty cell as <c>| |</c>).</summary>
    public string Markdown()
    {
        string[] lines = [.. _rows.Select(row => "|" + string.Concat(row.Select(cell => cell.Length == 0 ? " |" : $" {cell} |")))];
        string alignment = "|" + string.Concat(_alignment.Select(a => a == 'r' ? "---:|" : "---|"));
        return string.Concat(lines.Take(1).Append(alignment).Concat(lines.Skip(1)).Select(line => line + "\n"));
    }

    /// <summary>The header and the rows as columns padded to their widest cell.</summary>
    public string Text()
    {
        int[] widths = Enumerable.Range(0, _alignment.Length).Select(i => _rows.Max(r => r[i].Length)).ToArray();
        return string.Concat(_rows.Select(row => string.Join("  ", row.Select((cell, i) => i == 0 ? cell.PadRight(widths[i]) : cell.PadLeft(widths[i]))).TrimEnd() + "\n"));
    }
}
