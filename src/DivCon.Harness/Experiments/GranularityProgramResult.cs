namespace DivCon.Harness.Experiments;

/// <summary>One program of a granularity experiment.</summary>
/// <param name="Program">Catalogue name.</param>
/// <param name="ProblemSize">The top-level problem size in the program's units.</param>
/// <param name="Ts">The sequential baseline's run times (for reference).</param>
/// <param name="Points">One per granularity, coarsest first.</param>
public sealed record GranularityProgramResult(string Program, long ProblemSize, TimedSample Ts, IReadOnlyList<GranularityPoint> Points);
