using System.Text;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Reporting;

namespace DivCon.Harness.Experiments;

/// <summary>
/// The result of <see cref="PhasesExperiment"/> (thesis Figure 7.5). <see cref="ToJson"/> writes <c>phases.json</c>:
/// <code>
/// { "kind": "phases", "schemaVersion": 1, "startedUtc", "elapsedSeconds", "machine": {..},
///   "configuration": { "programs", "size", "runs", "warmupRuns", "processors", "seed", "cores", "musclesPerCore" },
///   "programs": [ { "program", "problemSize", "granularity", "branchingFactor", "wall": S,
///                   "levels": [ { "level", "split": { "count", "seconds" }, "execute": { "count", "seconds" },
///                                 "merge": { "count", "seconds" } } ] } ] }
/// </code>
/// Counts and seconds are per run: totals over the <c>runs</c> profiled runs divided by <c>runs</c>; seconds are
/// cumulative over the tasks of the level (time inside the muscle, measured by the skeleton's PhaseProfiler).
/// </summary>
public sealed record PhasesResult(
    ExperimentSettings Settings,
    int MusclesPerCore,
    MachineInfo Machine,
    DateTimeOffset StartedUtc,
    double ElapsedSeconds,
    IReadOnlyList<PhaseProgramResult> Programs)
{
    /// <summary>The file kind and base name.</summary>
    public const string Kind = "phases";

    /// <summary>The JSON document described above.</summary>
    public string ToJson() => ExperimentJson.Document(
        Kind, StartedUtc, ElapsedSeconds, Machine, Settings,
        w =>
        {
            w.WriteNumber("cores", Settings.Processors.Count);
            w.WriteNumber("musclesPerCore", MusclesPerCore);
        },
        Programs,
        (w, p) =>
        {
            w.WriteString("program", p.Program);
            w.WriteNumber("problemSize", p.ProblemSize);
            w.WriteNumber("granularity", p.Granularity);
            w.WriteNumber("branchingFactor", p.BranchingFactor);
            ExperimentJson.Sample(w, "wall", p.Wall.Summary, p.Wall.Seconds);
            ExperimentJson.Objects(w, "levels", p.Levels, (w, l) =>
            {
                w.WriteNumber("level", l.Level);
                foreach (var (name, count, seconds) in new[] { ("split", l.SplitCount, l.SplitSeconds), ("execute", l.ExecuteCount, l.ExecuteSeconds), ("merge", l.MergeCount, l.MergeSeconds) })
                {
                    w.WriteStartObject(name);
                    ResultJsonShapes.Number(w, "count", count);
                    ResultJsonShapes.Number(w, "seconds", seconds);
                    w.WriteEndObject();
                }
            });
        });

    /// <summary>One row per program and level: <c>program,level,split_count,split_seconds,execute_count,execute_seconds,merge_count,merge_seconds</c>.</summary>
    public string ToCsv()
    {
        var sb = new StringBuilder("program,level,split_count,split_seconds,execute_count,execute_seconds,merge_count,merge_seconds\n");
        foreach (PhaseProgramResult p in Programs)
        {
            foreach (PhaseLevel l in p.Levels)
            {
                sb.AppendJoin(',',
                    p.Program, ExperimentJson.Csv(l.Level), ExperimentJson.Csv(l.SplitCount), ExperimentJson.Csv(l.SplitSeconds),
                    ExperimentJson.Csv(l.ExecuteCount), ExperimentJson.Csv(l.ExecuteSeconds), ExperimentJson.Csv(l.MergeCount),
                    ExperimentJson.Csv(l.MergeSeconds)).Append('\n');
            }
        }

        return sb.ToString();
    }
}
