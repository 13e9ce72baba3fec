using System.Text;
using DivCon.Harness.Cyclic;

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
    public string ToJson() => ExperimentJson.Write(w =>
    {
        w.WriteStartObject();
        ExperimentJson.Header(w, Kind, StartedUtc, ElapsedSeconds, Machine);
        w.WriteStartObject("configuration");
        ExperimentJson.Settings(w, Settings);
        w.WriteNumber("cores", Settings.Processors.Count);
        w.WriteNumber("musclesPerCore", MusclesPerCore);
        w.WriteEndObject();
        w.WriteStartArray("programs");
        foreach (PhaseProgramResult p in Programs)
        {
            w.WriteStartObject();
            w.WriteString("program", p.Program);
            w.WriteNumber("problemSize", p.ProblemSize);
            w.WriteNumber("granularity", p.Granularity);
            w.WriteNumber("branchingFactor", p.BranchingFactor);
            ExperimentJson.Sample(w, "wall", p.Wall.Summary, p.Wall.Seconds);
            w.WriteStartArray("levels");
            foreach (PhaseLevel l in p.Levels)
            {
                w.WriteStartObject();
                w.WriteNumber("level", l.Level);
                foreach (var (name, count, seconds) in new[] { ("split", l.SplitCount, l.SplitSeconds), ("execute", l.ExecuteCount, l.ExecuteSeconds), ("merge", l.MergeCount, l.MergeSeconds) })
                {
                    w.WriteStartObject(name);
                    ExperimentJson.Number(w, "count", count);
                    ExperimentJson.Number(w, "seconds", seconds);
                    w.WriteEndObject();
                }

                w.WriteEndObject();
            }

            w.WriteEndArray();
            w.WriteEndObject();
        }

        w.WriteEndArray();
        w.WriteEndObject();
    });

    /// <summary>One row per program and level: <c>program,level,split_count,split_seconds,execute_count,execute_seconds,merge_count,merge_seconds</c>.</summary>
    public string ToCsv()
    {
        var sb = new StringBuilder("program,level,split_count,split_seconds,execute_count,execute_seconds,merge_count,merge_seconds\n");
        foreach (PhaseProgramResult p in Programs)
        {
            foreach (PhaseLevel l in p.Levels)
            {
                sb.Append(p.Program).Append(',').Append(ExperimentJson.Csv(l.Level)).Append(',')
                  .Append(ExperimentJson.Csv(l.SplitCount)).Append(',').Append(ExperimentJson.Csv(l.SplitSeconds)).Append(',')
                  .Append(ExperimentJson.Csv(l.ExecuteCount)).Append(',').Append(ExperimentJson.Csv(l.ExecuteSeconds)).Append(',')
                  .Append(ExperimentJson.Csv(l.MergeCount)).Append(',').Append(ExperimentJson.Csv(l.MergeSeconds)).Append('\n');
            }
        }

        return sb.ToString();
    }
}
