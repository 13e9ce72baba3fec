using DivCon.Harness.Cyclic;
using DivCon.Harness.Statistics;

namespace DivCon.Harness.Reporting;

/// <summary>
/// Writes <c>cyclic.csv</c>: one row per number, long format, invariant culture, header
/// <c>scheme,program,metric,mean,ci99_lo,ci99_hi,sd,rsd,n</c>. Per program: <c>csp</c>, <c>cmp</c>, <c>ntt</c>, <c>np</c>
/// (n = recorded runs); per scheme (program empty): <c>antt</c>, <c>mntt</c>, <c>stp</c> (n = repetitions). Empty cells
/// are missing values.
/// </summary>
public static class CyclicCsvWriter
{
    /// <summary>The header line.</summary>
    public const string Header = "scheme,program,metric,mean,ci99_lo,ci99_hi,sd,rsd,n";

    /// <summary>Writes <paramref name="result"/> to <paramref name="writer"/>.</summary>
    public static void Write(CyclicResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write(Header + "\n");
        foreach (SchemeResult s in result.Schemes)
        {
            foreach (ProgramResult p in s.Programs)
            {
                Row(writer, s.Scheme, p.Program, "csp", p.Csp);
                Row(writer, s.Scheme, p.Program, "cmp", p.Cmp);
                Row(writer, s.Scheme, p.Program, "ntt", p.Ntt);
                Row(writer, s.Scheme, p.Program, "np", p.Np);
            }

            Row(writer, s.Scheme, string.Empty, "antt", s.Antt);
            Row(writer, s.Scheme, string.Empty, "mntt", s.Mntt);
            Row(writer, s.Scheme, string.Empty, "stp", s.Stp);
        }
    }

    private static void Row(TextWriter w, string scheme, string program, string metric, Estimate? e) =>
        Line(w, scheme, program, metric, e?.Mean, e?.Ci99, e?.StandardDeviation, e?.RelativeStandardDeviation, e?.Count);

    private static void Row(TextWriter w, string scheme, string program, string metric, RatioEstimate? r) =>
        Line(w, scheme, program, metric, r?.Mean, r?.Ci99, r?.StandardDeviation, r?.RelativeStandardDeviation, r?.NumeratorCount);

    private static void Line(TextWriter w, string scheme, string program, string metric, double? mean, ConfidenceInterval? ci, double? sd, double? rsd, int? n)
    {
        string count = n is { } k ? k.ToString(System.Globalization.CultureInfo.InvariantCulture) : string.Empty;
        w.Write($"{Escape(scheme)},{Escape(program)},{metric},{Format.Csv(mean)},{Format.Csv(ci?.Lower)},{Format.Csv(ci?.Upper)},{Format.Csv(sd)},{Format.Csv(rsd)},{count}\n");
    }

    private static string Escape(string field) =>
        field.IndexOfAny([',', '"', '\n']) >= 0 ? "\"" + field.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"" : field;
}
