namespace DivCon.Harness.Experiments;

/// <summary>
/// One recursion level of a phase profile, per run (totals over the profiled runs divided by their number): how many
/// split / execute / merge muscles ran at this level and their cumulative time in seconds (summed over tasks, so it
/// can exceed the wall-clock time).
/// </summary>
public sealed record PhaseLevel(
    int Level,
    double SplitCount,
    double SplitSeconds,
    double ExecuteCount,
    double ExecuteSeconds,
    double MergeCount,
    double MergeSeconds);
