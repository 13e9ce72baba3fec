using System.Globalization;
using System.Text;
using System.Text.Json;
using DivCon.Harness.Statistics;

namespace DivCon.Simulation;

/// <summary>One simulated cyclic test with the name of its workload, as reports list it.</summary>
/// <param name="Workload">The workload's name (for example <c>suite</c> or <c>subset</c>).</param>
/// <param name="Result">The simulation.</param>
public sealed record NamedResult(string Workload, SimulationResult Result);

/// <summary>
/// Writes simulation results as JSON, CSV and Markdown. Nothing wall-clock (no dates, no machine names, no elapsed
/// real time) goes in, so the same request gives byte-identical files. Per scheme the JSON has the harness's
/// cyclic.json fields: <c>scheme</c>, <c>antt</c>, <c>mntt</c>, <c>stp</c>, <c>programs</c>; per program
/// <c>program</c>, <c>csp</c>, <c>cmp</c>, <c>runs</c>, <c>ntt</c>, <c>np</c>; each mean with a <c>…Ci99</c> field
/// beside it (<c>{"lower","upper"}</c>, or null when there are too few values), times in seconds.
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
            WriteEstimate(w, "csp", iso.Csp);
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
            WriteNullable(w, "antt", s.Antt);
            w.WriteNull("anttCi99"); // scheme-level intervals need repetitions (the harness's --repeat); one simulation is one repetition
            WriteNullable(w, "mntt", s.Mntt);
            w.WriteNull("mnttCi99");
            WriteNullable(w, "stp", s.Stp);
            w.WriteNull("stpCi99");
            w.WriteStartArray("programs");
            foreach (ProgramResult p in s.Programs)
            {
                w.WriteStartObject();
                w.WriteString("program", p.Program);
                WriteEstimate(w, "csp", p.Csp);
                if (p.Cmp is { } cmp)
                {
                    WriteEstimate(w, "cmp", cmp);
                }
                else
                {
                    w.WriteNull("cmp");
                    w.WriteNull("cmpCi99");
                }

                w.WriteNumber("runs", p.CmpRunsNs.Count);
                WriteRatio(w, "ntt", p.Ntt);
                WriteRatio(w, "np", p.Np);
                w.WriteEndObject();
            }

            w.WriteEndArray();
            WriteCounters(w, s.Counters, r.Request);
            w.WriteEndObject();
        }

        w.WriteEndArray();
        w.WriteEndObject();
    }

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
                w.WriteNumber(request.Programs[i].Name, (double)allocated[i] / request.DurationNs);
            }

            w.WriteEndObject();
        }

        w.WriteEndObject();
    }

    private static void WriteEstimate(Utf8JsonWriter w, string name, Estimate e)
    {
        w.WriteNumber(name, e.Mean);
        WriteInterval(w, name + "Ci99", e.Ci99);
    }

    private static void WriteRatio(Utf8JsonWriter w, string name, RatioEstimate? e)
    {
        if (e is null)
        {
            w.WriteNull(name);
            w.WriteNull(name + "Ci99");
            return;
        }

        w.WriteNumber(name, e.Mean);
        WriteInterval(w, name + "Ci99", e.Ci99);
    }

    private static void WriteInterval(Utf8JsonWriter w, string name, ConfidenceInterval? ci)
    {
        if (ci is { } c)
        {
            w.WriteStartObject(name);
            w.WriteNumber("lower", c.Lower);
            w.WriteNumber("upper", c.Upper);
            w.WriteEndObject();
        }
        else
        {
            w.WriteNull(name);
        }
    }

    private static void WriteNullable(Utf8JsonWriter w, string name, double? value)
    {
        if (value is { } v)
        {
            w.WriteNumber(name, v);
        }
        else
        {
            w.WriteNull(name);
        }
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
