namespace DivCon.Harness.Factored;

/// <summary>How <see cref="FactoredMeasurement"/> measures one program.</summary>
/// <param name="WorkerCounts">The P values, each at least 1; P = 1 is always measured (T_1 is its mean).</param>
/// <param name="Runs">Timed runs of each kind per P (at least 1).</param>
/// <param name="WarmupRuns">Untimed runs of each kind before the timed ones (JIT, caches), 0 or more.</param>
public sealed record FactoredSettings(IReadOnlyList<int> WorkerCounts, int Runs, int WarmupRuns = 1);
