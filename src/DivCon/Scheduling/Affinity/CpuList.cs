using System.Globalization;
using System.Text;

namespace DivCon.Scheduling;

/// <summary>
/// The Linux cpu-list notation used by sysfs, <c>taskset -c</c> and cgroup cpusets: comma-separated processor ids
/// and inclusive ranges, e.g. <c>0-3,8,10-11</c>. Ranges may carry a stride (<c>0-7:2</c> = 0,2,4,6), as the
/// kernel's <c>bitmap_parselist</c> accepts.
/// </summary>
public static class CpuList
{
    /// <summary>
    /// The largest processor id accepted. Linux's <c>NR_CPUS</c> is at most 8192; the bound keeps a typo such as
    /// <c>0-99999999</c> from allocating a huge list.
    /// </summary>
    public const int MaxProcessorId = 65535;

    /// <summary>
    /// Parses a cpu list into its processor ids, ascending and without duplicates. An empty or all-whitespace string
    /// (sysfs writes an empty line for an empty set) gives an empty list.
    /// </summary>
    /// <param name="text">The list, e.g. <c>0-3,8,10-11</c>; surrounding whitespace and a trailing newline are ignored.</param>
    /// <exception cref="FormatException">
    /// The text is not a comma-separated list of ids and <c>a-b</c> ranges with <c>a &lt;= b</c>, ids from 0 to
    /// <see cref="MaxProcessorId"/>.
    /// </exception>
    public static IReadOnlyList<int> Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (!TryParse(text, out var ids, out string? error))
        {
            throw new FormatException(error);
        }

        return ids;
    }

    /// <summary>
    /// Parses a cpu list like <see cref="Parse"/>, returning <see langword="false"/> instead of throwing for text that
    /// is not a valid list.
    /// </summary>
    /// <param name="text">The list to parse.</param>
    /// <param name="processors">The processor ids, ascending and distinct; empty when parsing failed.</param>
    public static bool TryParse(string? text, out IReadOnlyList<int> processors) =>
        TryParse(text, out processors, out _);

    /// <summary>
    /// Formats processor ids as a compact cpu list: ascending, consecutive ids merged into ranges
    /// (<c>[0,1,2,3,8]</c> → <c>0-3,8</c>, <c>[0,1]</c> → <c>0-1</c>, as the kernel writes them). Duplicates are ignored; an empty set gives an empty string.
    /// </summary>
    /// <param name="processors">Non-negative processor ids in any order.</param>
    public static string Format(IEnumerable<int> processors)
    {
        ArgumentNullException.ThrowIfNull(processors);
        var sorted = new SortedSet<int>(processors);
        if (sorted.Count > 0 && sorted.Min < 0)
        {
            throw new ArgumentException($"Processor ids must be non-negative; got {sorted.Min}.", nameof(processors));
        }

        var sb = new StringBuilder();
        int start = -1, previous = -1;
        foreach (int id in sorted)
        {
            if (start >= 0 && id == previous + 1)
            {
                previous = id;
                continue;
            }

            AppendRange(sb, start, previous);
            start = previous = id;
        }

        AppendRange(sb, start, previous);
        return sb.ToString();
    }

    private static void AppendRange(StringBuilder sb, int start, int end)
    {
        if (start < 0)
        {
            return;
        }

        if (sb.Length > 0)
        {
            sb.Append(',');
        }

        sb.Append(start.ToString(CultureInfo.InvariantCulture));
        if (end > start)
        {
            sb.Append('-').Append(end.ToString(CultureInfo.InvariantCulture));
        }
    }

    private static bool TryParse(string? text, out IReadOnlyList<int> processors, out string? error)
    {
        processors = [];
        if (text is null)
        {
            error = "A cpu list was expected but the text is null.";
            return false;
        }

        string trimmed = text.Trim();
        var ids = new SortedSet<int>();
        if (trimmed.Length == 0)
        {
            error = null;
            return true;
        }

        foreach (string rawPart in trimmed.Split(','))
        {
            string part = rawPart.Trim();
            if (part.Length == 0)
            {
                error = $"'{trimmed}' is not a cpu list: it has an empty element. Expected ids and ranges such as 0-3,8.";
                return false;
            }

            int stride = 1;
            int colon = part.IndexOf(':', StringComparison.Ordinal);
            string range = part;
            if (colon >= 0)
            {
                if (!TryParseId(part[(colon + 1)..], out stride) || stride == 0)
                {
                    error = $"'{part}' in '{trimmed}' has an invalid stride: expected a positive number after ':'.";
                    return false;
                }

                range = part[..colon];
            }

            int dash = range.IndexOf('-', StringComparison.Ordinal);
            int first, last;
            if (dash < 0)
            {
                if (colon >= 0 || !TryParseId(range, out first))
                {
                    error = $"'{part}' in '{trimmed}' is not a processor id (0 to {MaxProcessorId}) or a range a-b.";
                    return false;
                }

                last = first;
            }
            else if (!TryParseId(range[..dash], out first) || !TryParseId(range[(dash + 1)..], out last))
            {
                error = $"'{part}' in '{trimmed}' is not a range a-b of processor ids (0 to {MaxProcessorId}).";
                return false;
            }
            else if (first > last)
            {
                error = $"'{part}' in '{trimmed}' is a descending range; write it as {last}-{first}.";
                return false;
            }

            for (int id = first; id <= last; id += stride)
            {
                ids.Add(id);
            }
        }

        processors = ids.ToArray();
        error = null;
        return true;
    }

    private static bool TryParseId(string s, out int id)
    {
        // NumberStyles.None: digits only, so "-1", "+1", " 1" and "0x1" are all rejected.
        return int.TryParse(s, NumberStyles.None, CultureInfo.InvariantCulture, out id) && id <= MaxProcessorId;
    }
}
