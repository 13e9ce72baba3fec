namespace DivCon.Harness.Experiments;

/// <summary>One program's phase profile.</summary>
/// <param name="Program">Catalogue name.</param>
/// <param name="ProblemSize">Top-level problem size, in the program's units.</param>
/// <param name="Granularity">The granularity used.</param>
/// <param name="BranchingFactor">Subproblems per split.</param>
/// <param name="Wall">Wall-clock times of the profiled runs.</param>
/// <param name="Levels">Level 1 (the root) first.</param>
public sealed record PhaseProgramResult(string Program, long ProblemSize, long Granularity, int BranchingFactor, TimedSample Wall, IReadOnlyList<PhaseLevel> Levels);
