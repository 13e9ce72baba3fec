using DivCon.Multiprogramming;

namespace DivCon.Harness.Plots;

/// <summary>
/// The allocation timeline of one multiprogram scheme's run, as handed to the cyclic output path: the scheduler's
/// timeline, how many workers it had, the names of its program ids (<see cref="ProgramHandle.Id"/> →
/// <see cref="ProgramHandle.Name"/>) and when the run ended (<see cref="System.Diagnostics.Stopwatch.GetTimestamp"/>
/// ticks; open spans end there). <paramref name="FinalWorkerPrograms"/> (optional: the program each worker slot was
/// assigned at <paramref name="EndTimestamp"/>, e.g. <see cref="MultiProgramSnapshot.WorkerPrograms"/>) lets the plot
/// stay exact when the timeline's ring dropped its oldest moves.
/// </summary>
public sealed record SchemeTimeline(
    string Scheme,
    AllocationTimeline Timeline,
    int Workers,
    IReadOnlyDictionary<int, string> ProgramNames,
    long EndTimestamp,
    IReadOnlyList<int?>? FinalWorkerPrograms = null);
