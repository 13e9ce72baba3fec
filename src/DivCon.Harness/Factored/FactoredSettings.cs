using DivCon.Metrics;

namespace DivCon.Harness.Factored;

/// <summary>How <see cref="FactoredMeasurement"/> measures one program.</summary>
/// <param name="WorkerCounts">The P values, each at least 1; P = 1 is always measured (T_1 is its mean).</param>
/// <param name="Runs">Timed runs of each kind per P (at least 1).</param>
/// <param name="WarmupRuns">Untimed runs of each kind before the timed ones (JIT, caches), 0 or more.</param>
public sealed record FactoredSettings(IReadOnlyList<int> WorkerCounts, int Runs, int WarmupRuns = 1)
{
    /// <summary>Every problem with these settings, one message each; empty when they are valid.</summary>
    public IReadOnlyList<string> Validate()
    {
        var problems = new List<string>();
        problems.AddIf(WorkerCounts is null || WorkerCounts.Count == 0, "At least one worker count is needed.");
        problems.AddIf(WorkerCounts is not null && WorkerCounts.Any(p => p < 1),
            $"Worker counts must be at least 1; got {string.Join(", ", WorkerCounts ?? [])}.");
        problems.AddIf(Runs < 1, $"Runs must be at least 1; got {Runs}.");
        problems.AddIf(WarmupRuns < 0, $"Warm-up runs must be 0 or more; got {WarmupRuns}.");

        return problems;
    }
}
