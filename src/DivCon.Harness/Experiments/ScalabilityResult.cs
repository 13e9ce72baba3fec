using System.Text;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Reporting;

namespace DivCon.Harness.Experiments;

/// <summary>
/// The result of <see cref="ScalabilityExperiment"/> (thesis Figures 7.3–7.4). <see cref="ToJson"/> writes
/// <c>scalability.json</c>:
/// <code>
/// { "kind": "scalability", "schemaVersion": 1, "startedUtc", "elapsedSeconds", "machine": {..},
///   "configuration": { "programs", "size", "runs", "warmupRuns", "processors", "seed", "selections" },
///   "programs": [ { "program", "granularity", "ts": S,
///                   "curves": [ { "selection": "contiguous"|"dispersed",
///                                 "points": [ { "p", "processors": [..], "pinned", "tp": S, "speedup" } ] } ] } ] }
/// S = { "mean", "ci99": [lo, hi] | null, "sd", "rsd", "n", "seconds": [..] }; speedup = mean T_s / mean T_P.
/// </code>
/// </summary>
public sealed record ScalabilityResult(
    ExperimentSettings Settings,
    IReadOnlyList<ProcessorSelection> Selections,
    MachineInfo Machine,
    DateTimeOffset StartedUtc,
    double ElapsedSeconds,
    IReadOnlyList<ScalabilityProgramResult> Programs)
{
    /// <summary>The file kind and base name.</summary>
    public const string Kind = "scalability";

    /// <summary>The JSON document described above.</summary>
    public string ToJson() => ExperimentJson.Document(
        Kind, StartedUtc, ElapsedSeconds, Machine, Settings,
        w => ExperimentJson.Strings(w, "selections", Selections.Select(Name)),
        Programs,
        (w, p) =>
        {
            w.WriteString("program", p.Program);
            w.WriteNumber("granularity", p.Granularity);
            ExperimentJson.Sample(w, "ts", p.Ts.Summary, p.Ts.Seconds);
            ExperimentJson.Objects(w, "curves", p.Curves, (w, c) =>
            {
                w.WriteString("selection", Name(c.Selection));
                ExperimentJson.Objects(w, "points", c.Points, (w, pt) =>
                {
                    w.WriteNumber("p", pt.P);
                    ExperimentJson.Ints(w, "processors", pt.Processors);
                    w.WriteBoolean("pinned", pt.Pinned);
                    ExperimentJson.Sample(w, "tp", pt.Tp.Summary, pt.Tp.Seconds);
                    ResultJsonShapes.Number(w, "speedup", pt.Speedup);
                });
            });
        });

    /// <summary>One row per program, selection and P: <c>program,selection,p,processors,pinned,ts_mean,tp_mean,tp_sd,tp_ci99_lo,tp_ci99_hi,speedup</c>.</summary>
    public string ToCsv()
    {
        var sb = new StringBuilder("program,selection,p,processors,pinned,ts_mean,tp_mean,tp_sd,tp_ci99_lo,tp_ci99_hi,speedup\n");
        foreach (ScalabilityProgramResult p in Programs)
        {
            foreach (ScalabilityCurve c in p.Curves)
            {
                foreach (ScalabilityCorePoint pt in c.Points)
                {
                    sb.AppendJoin(',',
                        p.Program, Name(c.Selection), ExperimentJson.Csv(pt.P), string.Join(' ', pt.Processors), pt.Pinned ? "true" : "false",
                        ExperimentJson.Csv(p.Ts.Mean), ExperimentJson.Csv(pt.Tp.Mean), ExperimentJson.Csv(pt.Tp.Summary.StandardDeviation),
                        ExperimentJson.Csv(pt.Tp.Summary.Ci99?.Lower), ExperimentJson.Csv(pt.Tp.Summary.Ci99?.Upper), ExperimentJson.Csv(pt.Speedup)).Append('\n');
                }
            }
        }

        return sb.ToString();
    }

    /// <summary>The lowercase name of a selection, as in the files.</summary>
    public static string Name(ProcessorSelection selection) => selection.ToString().ToLowerInvariant();
}
