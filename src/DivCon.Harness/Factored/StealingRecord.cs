namespace DivCon.Harness.Factored;

/// <summary>How the schedulers of a factored measurement stole, as its result records it (<see cref="FactoredStealing"/>).</summary>
/// <param name="Scope"><c>all</c> or <c>cache-group-first</c>.</param>
/// <param name="Groups"><c>detected</c>, <c>per-worker</c> or the explicit groups (<c>0,1;2,3</c>).</param>
/// <param name="DetectedCacheGroups">The last-level cache groups this machine reported, when known.</param>
/// <param name="WorkerGroups">Per worker count, the groups its scheduler had.</param>
public sealed record StealingRecord(string Scope, string Groups, int? DetectedCacheGroups, IReadOnlyList<WorkerGroups> WorkerGroups);

/// <summary>The stealing groups of a <paramref name="P"/>-worker scheduler.</summary>
/// <param name="P">Workers.</param>
/// <param name="Groups">Its groups as text, or <c>detected</c>.</param>
public sealed record WorkerGroups(int P, string Groups);
