namespace DivCon.Harness.Experiments;

/// <summary>One granularity of a program: the run times with granularity = problem size / <paramref name="Divisor"/>.</summary>
/// <param name="Divisor">2^k: the granularity ratio is 1/Divisor, about the number of execute muscles (§7.1).</param>
/// <param name="Granularity">The granularity used, in the program's units (at least 1).</param>
/// <param name="MusclesPerCore">Divisor / cores: the target execute muscles per core this ratio stands for.</param>
/// <param name="Time">The parallel run times.</param>
public sealed record GranularityPoint(long Divisor, long Granularity, double MusclesPerCore, TimedSample Time);
