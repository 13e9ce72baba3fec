namespace DivCon.Harness.Experiments;

/// <summary>One core count of a scalability curve: T_P on a pinned work-stealing scheduler over <paramref name="Processors"/>.</summary>
/// <param name="P">Workers (= processors).</param>
/// <param name="Processors">The processors chosen for them.</param>
/// <param name="Pinned">Whether the workers were really pinned (false where pinning is impossible: then they ran unpinned).</param>
/// <param name="Tp">The parallel run times.</param>
/// <param name="Speedup">T_s / T_P as a ratio of means.</param>
public sealed record ScalabilityCorePoint(int P, IReadOnlyList<int> Processors, bool Pinned, TimedSample Tp, double Speedup);
