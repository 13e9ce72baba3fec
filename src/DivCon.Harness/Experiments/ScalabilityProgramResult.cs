namespace DivCon.Harness.Experiments;

/// <summary>One program of a scalability experiment: its sequential baseline and one curve per selection.</summary>
/// <param name="Program">Catalogue name.</param>
/// <param name="Granularity">The granularity used at every P (automatic for the largest P, so the task tree is the same at every point).</param>
/// <param name="Ts">The sequential baseline's run times.</param>
/// <param name="Curves">One per selection.</param>
public sealed record ScalabilityProgramResult(string Program, long Granularity, TimedSample Ts, IReadOnlyList<ScalabilityCurve> Curves);
