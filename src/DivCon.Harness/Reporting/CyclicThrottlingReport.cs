using System.Globalization;
using System.Text;
using DivCon.Harness.Cyclic;
using DivCon.Metrics.Throttling;

namespace DivCon.Harness.Reporting;

/// <summary>
/// What a cyclic or symmetric report says about the CPU budget and throttling, under the table and in
/// <c>report.md</c>: the budget the schedulers were sized by, then whether the cgroup's throttling counters could be
/// read and, where runs or phases were throttled, which ones and by how much (their times include that time).
/// </summary>
public static class CyclicThrottlingReport
{
    /// <summary>The lines (no trailing newline on each), for the table and the report alike.</summary>
    public static IReadOnlyList<string> Lines(CyclicResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        CyclicThrottling? t = result.Throttling;
        List<string> lines = Format.BudgetLines(result.Machine, measured: t is not null);
        if (t is null)
        {
            return lines;
        }

        if (!t.WasThrottled)
        {
            lines.Add("CPU throttling: none (cgroup cpu.stat read around every timed run alone and every multiprogram phase).");
            return lines;
        }

        lines.Add("CPU throttling by the CPU quota: the times of these runs and phases include time the kernel held the process back "
            + "(Θ = throttled core-seconds, cpu.stat), which is not the scheme's or the program's doing:");
        lines.AddRange(t.Alone.Where(a => a.Summary is { WasThrottled: true })
            .Select(a => $"  {MeasureName(a.Measure)} {a.Program} (repetition {a.Repetition}): {Format.Throttled(a.Summary!)}"));
        lines.AddRange(t.Phases.Where(p => p.Phase is { WasThrottled: true }).Select(p => string.Create(CultureInfo.InvariantCulture,
            $"  phase {p.Scheme} (repetition {p.Repetition}): Θ {p.Phase!.ThrottledSeconds:0.000} s, {p.Phase.ThrottledPeriods} of {p.Phase.Periods} periods")));

        return lines;
    }

    /// <summary>The lines as a block for the end of the terminal table (a blank line first).</summary>
    public static string Note(CyclicResult result) => "\n" + string.Concat(Lines(result).Select(l => l + "\n"));

    /// <summary>The lines as a section of <c>report.md</c>.</summary>
    public static string Markdown(CyclicResult result)
    {
        var b = new StringBuilder("\n## CPU budget and throttling\n\n");
        foreach (string line in Lines(result))
        {
            // An indented line is an item of the list above it; every other line is a paragraph.
            b.Append(line.StartsWith("  ", StringComparison.Ordinal) ? $"- {line.TrimStart()}\n" : $"{line}\n\n");
        }

        return b.ToString();
    }

    private static string MeasureName(string measure) => measure switch
    {
        "csp" => "C^SP",
        "tseq" => "T_seq",
        "ts" => "T_s",
        "t1" => "T_1",
        _ => measure,
    };
}
