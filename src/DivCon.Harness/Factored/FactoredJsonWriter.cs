using System.Globalization;
using System.Text.Json;
using DivCon.Harness.Cyclic;
using static DivCon.Harness.Reporting.ResultJsonShapes;

namespace DivCon.Harness.Factored;

/// <summary>
/// Writes <c>factored.json</c> (issue 7). Shape (seconds; non-finite values as null):
/// <code>
/// { "kind": "factored", "schemaVersion": 1, "startedUtc", "elapsedSeconds",
///   "machine": { "processorCount", "affinity", "os", "runtime", "architecture", "gitCommit", "gitDirty" },
///   "configuration": { "size", "seed", "runs", "warmupRuns", "workerCounts",
///                      "stealing": { "scope", "groups", "detectedCacheGroups", "workerGroups": [ { "p", "groups" } ] } or null },
///   "method": "...",
///   "programs": [ { "program", "settings", "ts", "t1", "telision",
///                   "points": [ { "p", "tp", "ip", "wp", "fp",
///                                 "speedups": { "linear", "maximal", "idleSpecific", "inflationSpecific", "actual", "elision" },
///                                 "steals": { "steals", "localSteals", "remoteSteals", "schedulingOverhead", "waiting" } or null } ],
///                   "samples": { "ts": [..], "telision": [..],
///                                "parallel": [ { "p", "tp": [..], "ip": [..], and when measured "steals", "localSteals",
///                                                "remoteSteals", "schedulingOverhead", "waiting": [..] } ] } } ] }
/// "steals" are means over the runs; schedulingOverhead + waiting = ip (seed 002's split of the idle time).
/// </code>
/// </summary>
public static class FactoredJsonWriter
{
    /// <summary>The method note recorded in the file.</summary>
    public const string Method =
        "Acar, Charguéraud, Rainey: factored speedups. ts, t1, tp, ip, telision are means over the runs in samples; "
        + "t1 is the mean of the P = 1 runs (parallel program on a 1-worker work-stealing scheduler); ip is the workers' idle time during a run "
        + "from the scheduler's counters; wp = p·tp − ip; fp = p·tp − ip − t1; linear = p, maximal = p·ts/t1, idleSpecific = p·ts/(t1 + ip), "
        + "inflationSpecific = p·ts/(p·tp − ip), actual = ts/tp, elision = p·ts/telision (granularity = problem size): ratios of means, not means of ratios.";

    /// <summary>Writes <paramref name="result"/> to <paramref name="stream"/>.</summary>
    public static void Write(FactoredResult result, Stream stream)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(stream);
        using var w = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true, Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping });
        w.WriteStartObject();
        w.WriteString("kind", "factored");
        w.WriteNumber("schemaVersion", 1);
        w.WriteString("startedUtc", result.StartedUtc.UtcDateTime.ToString("o", CultureInfo.InvariantCulture));
        Number(w, "elapsedSeconds", result.ElapsedSeconds);

        MachineInfo m = result.Machine;
        w.WriteStartObject("machine");
        w.WriteNumber("processorCount", m.ProcessorCount);
        w.WriteStartArray("affinity");
        foreach (int id in m.Affinity)
        {
            w.WriteNumberValue(id);
        }

        w.WriteEndArray();
        w.WriteString("os", m.OperatingSystem);
        w.WriteString("runtime", m.Runtime);
        w.WriteString("architecture", m.Architecture);
        w.WriteString("gitCommit", m.GitCommit);
        if (m.GitDirty is bool dirty)
        {
            w.WriteBoolean("gitDirty", dirty);
        }
        else
        {
            w.WriteNull("gitDirty");
        }

        w.WriteEndObject();

        w.WriteStartObject("configuration");
        w.WriteString("size", result.Size);
        w.WriteNumber("seed", result.Seed);
        w.WriteNumber("runs", result.Settings.Runs);
        w.WriteNumber("warmupRuns", result.Settings.WarmupRuns);
        w.WriteStartArray("workerCounts");
        foreach (int p in result.Settings.WorkerCounts)
        {
            w.WriteNumberValue(p);
        }

        w.WriteEndArray();
        WriteStealing(w, result.Stealing, result.Settings.WorkerCounts.Append(1).Distinct().Order());
        w.WriteEndObject();
        w.WriteString("method", Method);

        w.WriteStartArray("programs");
        foreach (FactoredProgramResult program in result.Programs)
        {
            WriteProgram(w, program, result.ProgramSettings?.GetValueOrDefault(program.Program));
        }

        w.WriteEndArray();
        w.WriteEndObject();
    }

    /// <summary>Writes the <c>speedups</c> object (also used by the multiprogram decomposition in cyclic.json).</summary>
    public static void WriteSpeedups(Utf8JsonWriter w, FactoredSpeedups speedups)
    {
        ArgumentNullException.ThrowIfNull(w);
        ArgumentNullException.ThrowIfNull(speedups);
        w.WriteStartObject();
        foreach (string name in FactoredSpeedups.Names)
        {
            Number(w, name, speedups.Get(name));
        }

        w.WriteEndObject();
    }

    // "stealing": { "scope", "groups", "detectedCacheGroups", "workerGroups": [ { "p", "groups": [[..]] or null (detected) } ] }, or null.
    private static void WriteStealing(Utf8JsonWriter w, FactoredStealing? stealing, IEnumerable<int> workerCounts)
    {
        if (stealing is null)
        {
            w.WriteNull("stealing");
            return;
        }

        w.WriteStartObject("stealing");
        w.WriteString("scope", FactoredStealing.ScopeName(stealing.Scope));
        w.WriteString("groups", stealing.Groups);
        Number(w, "detectedCacheGroups", stealing.DetectedCacheGroups);
        w.WriteStartArray("workerGroups");
        foreach (int p in workerCounts)
        {
            w.WriteStartObject();
            w.WriteNumber("p", p);
            if (stealing.GroupsFor(p) is { } groups)
            {
                w.WriteStartArray("groups");
                foreach (IReadOnlyList<int> group in groups)
                {
                    w.WriteStartArray();
                    foreach (int worker in group)
                    {
                        w.WriteNumberValue(worker);
                    }

                    w.WriteEndArray();
                }

                w.WriteEndArray();
            }
            else
            {
                w.WriteNull("groups");
            }

            w.WriteEndObject();
        }

        w.WriteEndArray();
        w.WriteEndObject();
    }

    // "steals": { "steals", "localSteals", "remoteSteals", "schedulingOverhead", "waiting" } (means), or null.
    private static void WriteSteals(Utf8JsonWriter w, RunStealStatistics? steals)
    {
        if (steals is null)
        {
            w.WriteNull("steals");
            return;
        }

        w.WriteStartObject("steals");
        Number(w, "steals", steals.Steals);
        Number(w, "localSteals", steals.LocalSteals);
        Number(w, "remoteSteals", steals.RemoteSteals);
        Number(w, "schedulingOverhead", steals.SchedulingOverheadSeconds);
        Number(w, "waiting", steals.WaitingSeconds);
        w.WriteEndObject();
    }

    private static void WriteProgram(Utf8JsonWriter w, FactoredProgramResult program, string? settings)
    {
        w.WriteStartObject();
        w.WriteString("program", program.Program);
        if (settings is null)
        {
            w.WriteNull("settings");
        }
        else
        {
            w.WriteString("settings", settings);
        }

        Number(w, "ts", program.Ts);
        Number(w, "t1", program.T1);
        Number(w, "telision", program.Telision);
        w.WriteStartArray("points");
        foreach (FactoredPoint point in program.Points)
        {
            w.WriteStartObject();
            Number(w, "p", point.P);
            Number(w, "tp", point.Tp);
            Number(w, "ip", point.Ip);
            Number(w, "wp", point.Wp);
            Number(w, "fp", point.Fp);
            w.WritePropertyName("speedups");
            WriteSpeedups(w, point.Speedups);
            WriteSteals(w, point.Steals);
            w.WriteEndObject();
        }

        w.WriteEndArray();
        w.WriteStartObject("samples");
        Numbers(w, "ts", program.Samples.Sequential);
        Numbers(w, "telision", program.Samples.Elision);
        w.WriteStartArray("parallel");
        foreach (var (p, runs) in program.Samples.Parallel.OrderBy(kv => kv.Key))
        {
            w.WriteStartObject();
            w.WriteNumber("p", p);
            Numbers(w, "tp", runs.Select(r => r.Seconds).ToArray());
            Numbers(w, "ip", runs.Select(r => r.IdleSeconds).ToArray());
            if (runs.All(r => r.Steals is not null))
            {
                Numbers(w, "steals", runs.Select(r => r.Steals!.Steals).ToArray());
                Numbers(w, "localSteals", runs.Select(r => r.Steals!.LocalSteals).ToArray());
                Numbers(w, "remoteSteals", runs.Select(r => r.Steals!.RemoteSteals).ToArray());
                Numbers(w, "schedulingOverhead", runs.Select(r => r.Steals!.SchedulingOverheadSeconds).ToArray());
                Numbers(w, "waiting", runs.Select(r => r.Steals!.WaitingSeconds).ToArray());
            }

            w.WriteEndObject();
        }

        w.WriteEndArray();
        w.WriteEndObject();
        w.WriteEndObject();
    }

    private static void Numbers(Utf8JsonWriter w, string name, IReadOnlyList<double> values)
    {
        w.WriteStartArray(name);
        foreach (double v in values)
        {
            NumberValue(w, v);
        }

        w.WriteEndArray();
    }

}
