namespace DivCon.Simulation;

/// <summary>One level of a phase profile: call counts and cumulative times (ns) of the three muscles over one run.</summary>
/// <param name="Level">The recursion level, 1 for the top-level problem.</param>
/// <param name="SplitCount">Split calls at this level.</param>
/// <param name="SplitNs">Their cumulative time, ns.</param>
/// <param name="ExecuteCount">Execute calls at this level.</param>
/// <param name="ExecuteNs">Their cumulative time, ns.</param>
/// <param name="MergeCount">Merge calls at this level.</param>
/// <param name="MergeNs">Their cumulative time, ns.</param>
public sealed record LevelProfile(int Level, long SplitCount, double SplitNs, long ExecuteCount, double ExecuteNs, long MergeCount, double MergeNs);
