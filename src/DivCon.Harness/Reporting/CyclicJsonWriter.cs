using System.Text.Json;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Factored;
using DivCon.Harness.Statistics;
using static DivCon.Harness.Reporting.ResultJsonShapes;

namespace DivCon.Harness.Reporting;

/// <summary>
/// Writes <c>cyclic.json</c> / <c>symmetric.json</c>. Shape (every number invariant, non-finite values as null):
/// <code>
/// { "kind", "schemaVersion": 1, "startedUtc", "elapsedSeconds",
///   "machine": { "processorCount", "affinity": [ids], "os", "runtime", "architecture", "gitCommit", "gitDirty" },
///   "configuration": { "programs", "schemes", "spScheme", "size", "durationSeconds", "spRuns", "warmupRuns", "repeat",
///                      "processors", "seed", "shuffleSchemes" },
///   "method": { "confidence", "programIntervals", "schemeIntervals", "comparisons" },
///   "baselines": [ { "program", "csp": E, "spSeconds": [..], "sequentialSeconds", "scalability" } ],
///   "schemes": [ { "scheme", "description", "antt": E, "mntt": E, "stp": E,
///                  "programs": [ { "program", "csp": E, "cmp": E|null, "runs", "discarded", "ntt": R|null, "np": R|null,
///                                  "factored": F|null, "factoredReason": string|null } ],
///                  "repetitions": [ { "repetition", "ntt": [..], "antt", "mntt", "stp" } ],
///                  "schedulers": [ { "program", "kind", "schedulerId", "workers", "pinned", "processors", "idleSeconds",
///                                    "tasksExecuted", "steals", "coreSeconds", "busySeconds",
///                                    "poolId", "poolWorkers", "movesIn", "movesOut", "repartitions" } ],
///                  "warnings": [..] } ],
///   "comparisons": [ { "schemeA", "schemeB", "metric", "meanA", "meanB", "difference", "t", "df", "p", "significant", "verdict" } ] }
/// E (a sample) = { "mean", "ci99": [lo, hi] | null, "sd", "rsd", "n" }
/// R (a ratio)  = { "mean", "ci99": [lo, hi] | null, "sd", "rsd", "se", "df", "n", "nSp" }
/// </code>
/// F (see <see cref="CyclicFactoredJson"/>) = { "coresHeld", "tmp", "ip", "wp", "fp", "ts", "t1", "telision", "intervalSeconds",
///   "coreSecondsHeld", "idleSeconds", "speedups": { "linear", "maximal", "idleSpecific", "inflationSpecific", "actual", "elision" } }
/// Seconds throughout.
/// </summary>
public static class CyclicJsonWriter
{
    /// <summary>The method notes recorded in every result file.</summary>
    public static readonly IReadOnlyDictionary<string, string> Method = new Dictionary<string, string>
    {
        ["programIntervals"] = "Per program, pooled over repetitions: csp and cmp are samples of runs (mean, Bessel sd, rsd, mean ± t(0.995,n−1)·sd/√n). "
            + "ntt = mean cmp / mean csp; its sd/rsd are of the per-run ratios with csp fixed (run-to-run variability); its ci99 is the delta method for a ratio "
            + "of two independent means, rse² = s_mp²/(k·m_mp²) + s_sp²/(N·m_sp²), se = ntt·rse, Welch–Satterthwaite df. np = 1/ntt with the same relative error.",
        ["schemeIntervals"] = "antt, mntt, stp: mean over repetitions of each repetition's value (computed from that repetition's mean cmp and csp); "
            + "sd and ci99 (Student t, n−1 df) need at least two repetitions (--repeat), otherwise null.",
        ["scalability"] = "Partitioned schemes divide the cores by each program's scalability, measured in the first repetition as "
            + "T_seq (one run of its sequential baseline) / mean C^SP (on the C^SP scheme, all cores): baselines[].scalability.",
        ["schedulers"] = "Per scheme and program, what its scheduler reported at the end of the last repetition's phase: workers (for a "
            + "partitioned pool, the workers its allocation gave the program then; poolWorkers is the whole pool), pinning, idle/busy/core "
            + "seconds, tasks, steals; for a partitioned pool, worker moves in/out (arrivals, repartitionings, loans) and repartitionings.",
        ["comparisons"] = "Welch's unequal-variance t-test on the per-repetition antt and stp of each pair of schemes, two-sided, significant when p < 0.01; "
            + "\"not enough repetitions\" when either has fewer than two.",
        ["factored"] = "Per program, for schemes whose scheduler accounts per-program core-time and idle time (the MultiProgramScheduler's "
            + "partitioned schemes): the statistics window runs from just before the arrangement registers the programs (the pool's counters "
            + "start there) to the first run stopped at the limit (the pool freezes its counters then), summed over repetitions "
            + "(intervalSeconds); coreSecondsHeld and idleSeconds are the pool's counters summed over the same windows. Runs discarded at the "
            + "limit are inside the window (their core-time counts), but only recorded runs make tmp (mean C^MP): the decomposition uses rates, "
            + "coresHeld = core/interval and ip = idle/interval·tmp. ts and t1 are measured alone once per test after the phases, only when "
            + "some scheme has accounting: t1 = mean of 2 runs on a 1-worker work-stealing scheduler, ts = the scalability "
            + "measurement's sequential run when one was made (partitioned schemes need it), else the mean of 2 sequential runs. Then wp = coresHeld·tmp − ip, fp = wp − t1 and the speedups as in factored.json. Other schemes: "
            + "factored null with factoredReason.",
    };

    /// <summary>Writes <paramref name="result"/> to <paramref name="stream"/>.</summary>
    public static void Write(CyclicResult result, Stream stream)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(stream);
        using var w = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true, Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping });
        w.WriteStartObject();
        DivCon.Harness.Experiments.ExperimentJson.Header(w, result.Configuration.Kind, result.StartedUtc, result.ElapsedSeconds, result.Machine);

        CyclicPlanRecord c = result.Configuration;
        w.WriteStartObject("configuration");
        Strings(w, "programs", c.Programs);
        Strings(w, "schemes", c.Schemes);
        w.WriteString("spScheme", c.SpScheme);
        w.WriteString("size", c.Size);
        Number(w, "durationSeconds", c.DurationSeconds);
        w.WriteNumber("spRuns", c.SpRuns);
        w.WriteNumber("warmupRuns", c.WarmupRuns);
        w.WriteNumber("repeat", c.Repeat);
        Ints(w, "processors", c.Processors);
        w.WriteNumber("seed", c.Seed);
        w.WriteBoolean("shuffleSchemes", c.ShuffleSchemes);
        w.WriteEndObject();

        w.WriteStartObject("method");
        Number(w, "confidence", Descriptive.Confidence);
        foreach (var (key, text) in Method)
        {
            w.WriteString(key, text);
        }

        w.WriteEndObject();

        w.WriteStartArray("baselines");
        foreach (ProgramBaseline b in result.Baselines)
        {
            w.WriteStartObject();
            w.WriteString("program", b.Program);
            w.WritePropertyName("csp");
            Sample(w, Descriptive.Summarize(b.SpSeconds.ToArray()));
            w.WriteStartArray("spSeconds");
            foreach (double v in b.SpSeconds)
            {
                NumberValue(w, v);
            }

            w.WriteEndArray();
            Number(w, "sequentialSeconds", b.SequentialSeconds);
            Number(w, "scalability", b.Scalability);
            w.WriteEndObject();
        }

        w.WriteEndArray();

        w.WriteStartArray("schemes");
        foreach (SchemeResult s in result.Schemes)
        {
            WriteScheme(w, s);
        }

        w.WriteEndArray();

        w.WriteStartArray("comparisons");
        foreach (SchemeComparison cmp in result.Comparisons)
        {
            WelchTestResult t = cmp.Test;
            w.WriteStartObject();
            w.WriteString("schemeA", cmp.SchemeA);
            w.WriteString("schemeB", cmp.SchemeB);
            w.WriteString("metric", cmp.Metric);
            Number(w, "meanA", t.MeanA);
            Number(w, "meanB", t.MeanB);
            Number(w, "difference", t.Difference);
            Number(w, "t", t.T);
            Number(w, "df", t.DegreesOfFreedom);
            Number(w, "p", t.PValue);
            if (t.Significant is { } sig)
            {
                w.WriteBoolean("significant", sig);
            }
            else
            {
                w.WriteNull("significant");
            }

            w.WriteString("verdict", t.Verdict);
            w.WriteEndObject();
        }

        w.WriteEndArray();
        w.WriteEndObject();
    }

    private static void WriteScheme(Utf8JsonWriter w, SchemeResult s)
    {
        w.WriteStartObject();
        w.WriteString("scheme", s.Scheme);
        w.WriteString("description", s.Description);
        w.WritePropertyName("antt");
        Sample(w, s.Antt);
        w.WritePropertyName("mntt");
        Sample(w, s.Mntt);
        w.WritePropertyName("stp");
        Sample(w, s.Stp);
        w.WriteStartArray("programs");
        foreach (ProgramResult p in s.Programs)
        {
            w.WriteStartObject();
            w.WriteString("program", p.Program);
            w.WritePropertyName("csp");
            Sample(w, p.Csp);
            w.WritePropertyName("cmp");
            Sample(w, p.Cmp);
            w.WriteNumber("runs", p.Runs);
            w.WriteNumber("discarded", p.Discarded);
            w.WritePropertyName("ntt");
            Ratio(w, p.Ntt);
            w.WritePropertyName("np");
            Ratio(w, p.Np);
            CyclicFactoredJson.Write(w, p.Factored);
            w.WriteEndObject();
        }

        w.WriteEndArray();
        w.WriteStartArray("repetitions");
        foreach (RepetitionMetrics r in s.Repetitions)
        {
            Repetition(w, r.Repetition, r.Ntt, r.Antt, r.Mntt, r.Stp);
        }

        w.WriteEndArray();
        w.WriteStartArray("schedulers");
        for (int i = 0; i < s.Schedulers.Count; i++)
        {
            var st = s.Schedulers[i];
            w.WriteStartObject();
            w.WriteString("program", i < s.Programs.Count ? s.Programs[i].Program : null);
            w.WriteString("kind", st.Kind);
            w.WriteNumber("schedulerId", st.SchedulerId);
            Number(w, "workers", st.Workers);
            if (st.Pinned is { } pinned)
            {
                w.WriteBoolean("pinned", pinned);
            }
            else
            {
                w.WriteNull("pinned");
            }

            if (st.Processors is null)
            {
                w.WriteNull("processors");
            }
            else
            {
                Ints(w, "processors", st.Processors);
            }

            Number(w, "idleSeconds", st.IdleSeconds);
            Number(w, "tasksExecuted", st.TasksExecuted);
            Number(w, "steals", st.Steals);
            Number(w, "coreSeconds", st.CoreSeconds);
            Number(w, "busySeconds", st.BusySeconds);
            Number(w, "poolId", st.PoolId);
            Number(w, "poolWorkers", st.PoolWorkers);
            Number(w, "movesIn", st.MovesIn);
            Number(w, "movesOut", st.MovesOut);
            Number(w, "repartitions", st.Repartitions);
            w.WriteEndObject();
        }

        w.WriteEndArray();
        Strings(w, "warnings", s.Warnings);
        w.WriteEndObject();
    }

    private static void Strings(Utf8JsonWriter w, string name, IEnumerable<string> values)
    {
        w.WriteStartArray(name);
        foreach (string v in values)
        {
            w.WriteStringValue(v);
        }

        w.WriteEndArray();
    }

    private static void Ints(Utf8JsonWriter w, string name, IEnumerable<int> values)
    {
        w.WriteStartArray(name);
        foreach (int v in values)
        {
            w.WriteNumberValue(v);
        }

        w.WriteEndArray();
    }
}
