namespace DivCon.Harness.Experiments;

/// <summary>A program's speedups for P = 1 … N under one processor selection.</summary>
public sealed record ScalabilityCurve(ProcessorSelection Selection, IReadOnlyList<ScalabilityCorePoint> Points);
