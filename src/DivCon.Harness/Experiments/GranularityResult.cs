using System.Text;
using DivCon.Harness.Cyclic;

namespace DivCon.Harness.Experiments;

/// <summary>
/// The result of <see cref="GranularityExperiment"/> (thesis Figures 7.1–7.2). <see cref="ToJson"/> writes
/// <c>granularity.json</c>:
/// <code>
/// { "kind": "granularity", "schemaVersion": 1, "startedUtc", "elapsedSeconds", "machine": {..},
///   "configuration": { "programs", "size", "runs", "warmupRuns", "processors", "seed", "cores", "maxDepth" },
///   "programs": [ { "program", "problemSize", "ts": S,
///                   "points": [ { "divisor", "granularity", "musclesPerCore", "time": S } ] } ] }
/// </code>
/// S as in <c>scalability.json</c>. Granularity = problemSize / divisor (rounded up, at least 1); divisor 1 is the
/// sequential elision run through the scheduler.
/// </summary>
public sealed record GranularityResult(
    ExperimentSettings Settings,
    int MaxDepth,
    MachineInfo Machine,
    DateTimeOffset StartedUtc,
    double ElapsedSeconds,
    IReadOnlyList<GranularityProgramResult> Programs)
{
    /// <summary>The file kind and base name.</summary>
    public const string Kind = "granularity";

    /// <summary>The JSON document described above.</summary>
    public string ToJson() => ExperimentJson.Write(w =>
    {
        w.WriteStartObject();
        ExperimentJson.Header(w, Kind, StartedUtc, ElapsedSeconds, Machine);
        w.WriteStartObject("configuration");
        ExperimentJson.Settings(w, Settings);
        w.WriteNumber("cores", Settings.Processors.Count);
        w.WriteNumber("maxDepth", MaxDepth);
        w.WriteEndObject();
        w.WriteStartArray("programs");
        foreach (GranularityProgramResult p in Programs)
        {
            w.WriteStartObject();
            w.WriteString("program", p.Program);
            w.WriteNumber("problemSize", p.ProblemSize);
            ExperimentJson.Sample(w, "ts", p.Ts.Summary, p.Ts.Seconds);
            w.WriteStartArray("points");
            foreach (GranularityPoint pt in p.Points)
            {
                w.WriteStartObject();
                w.WriteNumber("divisor", pt.Divisor);
                w.WriteNumber("granularity", pt.Granularity);
                ExperimentJson.Number(w, "musclesPerCore", pt.MusclesPerCore);
                ExperimentJson.Sample(w, "time", pt.Time.Summary, pt.Time.Seconds);
                w.WriteEndObject();
            }

            w.WriteEndArray();
            w.WriteEndObject();
        }

        w.WriteEndArray();
        w.WriteEndObject();
    });

    /// <summary>One row per program and granularity: <c>program,problem_size,divisor,granularity,muscles_per_core,time_mean,time_sd,time_ci99_lo,time_ci99_hi,ts_mean</c>.</summary>
    public string ToCsv()
    {
        var sb = new StringBuilder("program,problem_size,divisor,granularity,muscles_per_core,time_mean,time_sd,time_ci99_lo,time_ci99_hi,ts_mean\n");
        foreach (GranularityProgramResult p in Programs)
        {
            foreach (GranularityPoint pt in p.Points)
            {
                sb.Append(p.Program).Append(',').Append(ExperimentJson.Csv(p.ProblemSize)).Append(',').Append(ExperimentJson.Csv(pt.Divisor)).Append(',')
                  .Append(ExperimentJson.Csv(pt.Granularity)).Append(',').Append(ExperimentJson.Csv(pt.MusclesPerCore)).Append(',')
                  .Append(ExperimentJson.Csv(pt.Time.Mean)).Append(',').Append(ExperimentJson.Csv(pt.Time.Summary.StandardDeviation)).Append(',')
                  .Append(ExperimentJson.Csv(pt.Time.Summary.Ci99?.Lower)).Append(',').Append(ExperimentJson.Csv(pt.Time.Summary.Ci99?.Upper)).Append(',')
                  .Append(ExperimentJson.Csv(p.Ts.Mean)).Append('\n');
            }
        }

        return sb.ToString();
    }
}
