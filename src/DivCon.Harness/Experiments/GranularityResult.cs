using System.Text;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Reporting;

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
    public string ToJson() => ExperimentJson.Document(
        Kind, StartedUtc, ElapsedSeconds, Machine, Settings,
        w =>
        {
            w.WriteNumber("cores", Settings.Processors.Count);
            w.WriteNumber("maxDepth", MaxDepth);
        },
        Programs,
        (w, p) =>
        {
            w.WriteString("program", p.Program);
            w.WriteNumber("problemSize", p.ProblemSize);
            ExperimentJson.Sample(w, "ts", p.Ts.Summary, p.Ts.Seconds);
            ExperimentJson.Objects(w, "points", p.Points, (w, pt) =>
            {
                w.WriteNumber("divisor", pt.Divisor);
                w.WriteNumber("granularity", pt.Granularity);
                ResultJsonShapes.Number(w, "musclesPerCore", pt.MusclesPerCore);
                ExperimentJson.Sample(w, "time", pt.Time.Summary, pt.Time.Seconds);
            });
        });

    /// <summary>One row per program and granularity: <c>program,problem_size,divisor,granularity,muscles_per_core,time_mean,time_sd,time_ci99_lo,time_ci99_hi,ts_mean</c>.</summary>
    public string ToCsv()
    {
        var sb = new StringBuilder("program,problem_size,divisor,granularity,muscles_per_core,time_mean,time_sd,time_ci99_lo,time_ci99_hi,ts_mean\n");
        foreach (GranularityProgramResult p in Programs)
        {
            foreach (GranularityPoint pt in p.Points)
            {
                sb.AppendJoin(',',
                    p.Program, ExperimentJson.Csv(p.ProblemSize), ExperimentJson.Csv(pt.Divisor), ExperimentJson.Csv(pt.Granularity),
                    ExperimentJson.Csv(pt.MusclesPerCore), ExperimentJson.Csv(pt.Time.Mean), ExperimentJson.Csv(pt.Time.Summary.StandardDeviation),
                    ExperimentJson.Csv(pt.Time.Summary.Ci99?.Lower), ExperimentJson.Csv(pt.Time.Summary.Ci99?.Upper), ExperimentJson.Csv(p.Ts.Mean)).Append('\n');
            }
        }

        return sb.ToString();
    }
}
