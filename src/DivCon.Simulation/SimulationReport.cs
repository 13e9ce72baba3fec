using System.Globalization;
using System.Text;
using System.Text.Json;
using DivCon.Harness.Statistics;
using static DivCon.Harness.Reporting.ResultJsonShapes;

namespace DivCon.Simulation;

/// <summary>
/// Writes simulation results as JSON, CSV and Markdown. Nothing wall-clock (no dates, no machine names, no elapsed
/// real time) goes in, so the same request gives byte-identical files. Each scheme object has the shape of a scheme
/// in the harness's cyclic.json: <c>scheme</c>, <c>antt</c>, <c>mntt</c>, <c>stp</c> (each <c>{mean, ci99, sd, rsd, n}</c>
/// over the repetitions: with one repetition there is no interval), <c>programs</c> with <c>program</c>,
/// <c>csp</c> and <c>cmp</c> (<c>{mean, ci99, sd, rsd, n}</c>, seconds), <c>runs</c>, <c>discarded</c>, <c>ntt</c> and
/// <c>np</c> (<c>{mean, ci99, sd, rsd, se, df, n, nSp}</c>; runs pooled over repetitions), and <c>repetitions</c>
/// (<c>{repetition, ntt[], antt, mntt, stp}</c>); per result a <c>comparisons</c> array (Welch's test per scheme pair
/// on ANTT and STP). <c>ci99</c> is <c>[lower, upper]</c> or null.
/// </summary>
public static class SimulationReport
{
    /// <summary>The JSON document (UTF-8 text, indented, newline at the end).</summary>
    public static string ToJson(IReadOnlyList<NamedResult> results, IReadOnlyDictionary<string, string> settings)
    {
        ArgumentNullException.ThrowIfNull(results);
        ArgumentNullException.ThrowIfNull(settings);
        using var stream = new MemoryStream();
        using (var w = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true }))
        {
            w.WriteStartObject();
            w.WriteString("kind", "simulated-cyclic");
            w.WriteStartObject("settings");
            foreach ((string key, string value) in settings.OrderBy(kv => kv.Key, StringComparer.Ordinal))
            {
                w.WriteString(key, value);
            }

            w.WriteEndObject();
            if (results.Count > 0)
            {
                WriteParameters(w, results[0].Result.Request.Parameters);
            }

            w.WriteStartArray("results");
            foreach (NamedResult named in results)
            {
                WriteResult(w, named);
            }

            w.WriteEndArray();
            w.WriteEndObject();
        }

        return Encoding.UTF8.GetString(stream.ToArray()) + "\n";
    }

    private static void WriteParameters(Utf8JsonWriter w, SimulationParameters p)
    {
        w.WriteStartObject("parameters");
        w.WriteNumber("dispatchNs", p.DispatchNs);
        w.WriteNumber("stealNs", p.StealNs);
        w.WriteNumber("failedStealNs", p.FailedStealNs);
        w.WriteNumber("spinAttempts", p.SpinAttempts);
        w.WriteNumber("wakeNs", p.WakeNs);
        w.WriteNumber("quantumNs", p.QuantumNs);
        w.WriteNumber("contextSwitchNs", p.ContextSwitchNs);
        w.WriteNumber("migrationNs", p.MigrationNs);
        w.WriteNumber("repartitionIntervalNs", p.RepartitionIntervalNs);
        w.WriteEndObject();
    }

    private static void WriteResult(Utf8JsonWriter w, NamedResult named)
    {
        SimulationResult r = named.Result;
        w.WriteStartObject();
        w.WriteString("workload", named.Workload);
        w.WriteNumber("cores", r.Request.Cores);
        w.WriteNumber("seed", r.Request.Seed);
        w.WriteNumber("duration", r.Request.DurationNs / 1e9);
        w.WriteNumber("spRuns", r.Request.SpRuns);
        w.WriteNumber("repeat", r.Request.Repeat);
        w.WriteStartArray("isolated");
        for (int i = 0; i < r.Isolated.Count; i++)
        {
            IsolatedResult iso = r.Isolated[i];
            ProgramModel model = r.Request.Programs[i];
            w.WriteStartObject();
            w.WriteString("program", iso.Program);
            w.WriteString("modelSource", model.Source);
            w.WriteNumber("problemSize", model.ProblemSize);
            w.WriteNumber("splitDepth", iso.SplitDepth);
            w.WriteNumber("tasksPerRun", iso.TasksPerRun);
            w.WriteNumber("tseq", iso.SequentialNs / 1e9);
            w.WritePropertyName("csp");
            Sample(w, iso.Csp);
            w.WriteNumber("scalability", iso.Scalability);
            if (iso.ScalabilityTable is { } table)
            {
                w.WriteStartArray("scalabilityTable");
                foreach ((int cores, double speedup) in table)
                {
                    w.WriteStartObject();
                    w.WriteNumber("cores", cores);
                    w.WriteNumber("speedup", speedup);
                    w.WriteEndObject();
                }

                w.WriteEndArray();
            }

            w.WriteEndObject();
        }

        w.WriteEndArray();
        w.WriteStartArray("schemes");
        foreach (SchemeResult s in r.Schemes)
        {
            w.WriteStartObject();
            w.WriteString("scheme", s.Scheme);
            w.WritePropertyName("antt");
            Sample(w, OverRepetitions(s, r => r.Antt));
            w.WritePropertyName("mntt");
            Sample(w, OverRepetitions(s, r => r.Mntt));
            w.WritePropertyName("stp");
            Sample(w, OverRepetitions(s, r => r.Stp));
            w.WriteStartArray("programs");
            foreach (ProgramResult p in s.Programs)
            {
                w.WriteStartObject();
                w.WriteString("program", p.Program);
                w.WritePropertyName("csp");
                Sample(w, p.Csp);
                w.WritePropertyName("cmp");
                Sample(w, p.Cmp);
                w.WriteNumber("runs", p.CmpRunsNs.Count);
                w.WriteNumber("discarded", p.Discarded);
                w.WritePropertyName("ntt");
                Ratio(w, p.Ntt);
                w.WritePropertyName("np");
                Ratio(w, p.Np);
                w.WriteEndObject();
            }

            w.WriteEndArray();
            w.WriteStartArray("repetitions");
            foreach (SimulatedRepetition rep in s.Repetitions)
            {
                Repetition(w, rep.Repetition, rep.Ntt, rep.Antt, rep.Mntt, rep.Stp);
            }

            w.WriteEndArray();
            WriteCounters(w, s.Counters, r.Request);
            w.WriteEndObject();
        }

        w.WriteEndArray();
        w.WriteStartArray("comparisons");
        foreach (SchemeComparison c in r.Comparisons)
        {
            w.WriteStartObject();
            w.WriteString("schemeA", c.SchemeA);
            w.WriteString("schemeB", c.SchemeB);
            w.WriteString("metric", c.Metric);
            w.WriteNumber("meanA", c.Test.MeanA);
            w.WriteNumber("meanB", c.Test.MeanB);
            Number(w, "t", c.Test.T);
            Number(w, "df", c.Test.DegreesOfFreedom);
            Number(w, "p", c.Test.PValue);
            if (c.Test.Significant is { } significant)
            {
                w.WriteBoolean("significant", significant);
            }
            else
            {
                w.WriteNull("significant");
            }

            w.WriteString("verdict", c.Test.Verdict);
            w.WriteEndObject();
        }

        w.WriteEndArray();
        w.WriteEndObject();
    }

    /// <summary>A scheme metric over the repetitions, or null when some repetition has none.</summary>
    private static Estimate? OverRepetitions(SchemeResult s, Func<SimulatedRepetition, double?> metric) =>
        s.Repetitions.All(r => metric(r) is not null) ? Descriptive.Summarize(s.Repetitions.Select(r => metric(r)!.Value).ToArray()) : null;

    private static void WriteCounters(Utf8JsonWriter w, SimulationCounters c, SimulationRequest request)
    {
        w.WriteStartObject("simulation");
        w.WriteNumber("events", c.Events);
        w.WriteNumber("tasks", c.Tasks);
        w.WriteNumber("steals", c.Steals);
        w.WriteNumber("failedSteals", c.FailedSteals);
        w.WriteNumber("contextSwitches", c.ContextSwitches);
        w.WriteNumber("preemptions", c.Preemptions);
        w.WriteNumber("coldStarts", c.ColdStarts);
        w.WriteNumber("workerMoves", c.WorkerMoves);
        w.WriteNumber("loans", c.Loans);
        w.WriteNumber("programSwitches", c.ProgramSwitches);
        w.WriteNumber("policyCalls", c.PolicyCalls);
        w.WriteStartObject("coreSeconds");
        foreach ((string bucket, long ns) in c.CoreNs)
        {
            w.WriteNumber(bucket, ns / 1e9);
        }

        w.WriteEndObject();
        if (c.AllocatedCoreNs is { } allocated)
        {
            w.WriteStartObject("meanAllocatedCores");
            for (int i = 0; i < allocated.Count; i++)
            {
                w.WriteNumber(request.Programs[i].Name, (double)allocated[i] / request.DurationNs / request.Repeat);
            }

            w.WriteEndObject();
        }

        w.WriteEndObject();
    }

    /// <summary>CSV, one row per (workload, cores, scheme, program), invariant culture, header first.</summary>
    public static string ToCsv(IReadOnlyList<NamedResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        var sb = new StringBuilder("workload,cores,scheme,program,csp,cmp,runs,ntt,ntt_ci99_lower,ntt_ci99_upper,np,antt,mntt,stp\n");
        foreach (NamedResult named in results)
        {
            foreach (SchemeResult s in named.Result.Schemes)
            {
                foreach (ProgramResult p in s.Programs)
                {
                    sb.Append(CultureInfo.InvariantCulture,
                        $"{named.Workload},{named.Result.Request.Cores},{s.Scheme},{p.Program},{F(p.Csp.Mean)},{F(p.Cmp?.Mean)},{p.CmpRunsNs.Count},{F(p.Ntt?.Mean)},{F(p.Ntt?.Ci99?.Lower)},{F(p.Ntt?.Ci99?.Upper)},{F(p.Np?.Mean)},{F(s.Antt)},{F(s.Mntt)},{F(s.Stp)}\n");
                }
            }
        }

        return sb.ToString();
    }

    /// <summary>
    /// The summary table: per workload, one row per scheme and one ANTT / STP column pair per core count, best ANTT
    /// per column in bold. Markdown, invariant culture.
    /// </summary>
    public static string ToMarkdown(IReadOnlyList<NamedResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        var sb = new StringBuilder();
        foreach (var workload in results.GroupBy(r => r.Workload))
        {
            var columns = workload.OrderBy(r => r.Result.Request.Cores).ToArray();
            string programs = string.Join(", ", columns[0].Result.Request.Programs.Select(p => p.Name));
            sb.Append(CultureInfo.InvariantCulture, $"### {workload.Key}: {programs}\n\n");
            sb.Append("| scheme |");
            foreach (NamedResult c in columns)
            {
                sb.Append(CultureInfo.InvariantCulture, $" ANTT {c.Result.Request.Cores}c | STP {c.Result.Request.Cores}c |");
            }

            sb.Append('\n').Append("|---|");
            sb.Append(string.Concat(Enumerable.Repeat("---:|---:|", columns.Length))).Append('\n');
            var schemes = columns[0].Result.Schemes.Select(s => s.Scheme).ToArray();
            foreach (string scheme in schemes)
            {
                sb.Append(CultureInfo.InvariantCulture, $"| {scheme} |");
                foreach (NamedResult c in columns)
                {
                    SchemeResult s = c.Result.Schemes.First(x => x.Scheme == scheme);
                    double? best = c.Result.Schemes.Min(x => x.Antt);
                    string antt = s.Antt is { } a ? (a == best ? $"**{a:0.000}**" : $"{a:0.000}") : "n/a";
                    sb.Append(CultureInfo.InvariantCulture, $" {antt} | {(s.Stp is { } t ? t.ToString("0.000", CultureInfo.InvariantCulture) : "n/a")} |");
                }

                sb.Append('\n');
            }

            sb.Append('\n');
        }

        return sb.ToString();
    }

    private static string F(double? v) => v is { } x ? x.ToString("R", CultureInfo.InvariantCulture) : "";
}
