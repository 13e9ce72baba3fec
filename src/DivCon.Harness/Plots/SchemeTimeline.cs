using DivCon.Multiprogramming;

namespace DivCon.Harness.Plots;

/// <summary>
/// The allocation timeline of one multiprogram scheme's run, as handed to the cyclic output path: the scheduler's
/// timeline, how many workers it had, the names of its program ids (<see cref="ProgramHandle.Id"/> →
/// <see cref="ProgramHandle.Name"/>) and when the run ended (<see cref="System.Diagnostics.Stopwatch.GetTimestamp"/>
/// ticks; open spans end there).
/// </summary>
public sealed record SchemeTimeline(string Scheme, AllocationTimeline Timeline, int Workers, IReadOnlyDictionary<int, string> ProgramNames, long EndTimestamp);
