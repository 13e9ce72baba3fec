using DivCon.Metrics.Throttling;

namespace DivCon.Metrics.Factored;

/// <summary>
/// The measured runs of one program, seconds: T_s runs, T_elision runs (empty when the program has no elision) and,
/// per worker count P, the parallel runs. T_1 is the mean run time of the P = 1 runs (the parallel program on a
/// 1-worker scheduler), so <see cref="Parallel"/> must hold P = 1.
/// </summary>
/// <param name="Sequential">T_s runs.</param>
/// <param name="Elision">T_elision runs, possibly empty.</param>
/// <param name="Parallel">Runs per worker count.</param>
public sealed record FactoredSamples(
    IReadOnlyList<double> Sequential,
    IReadOnlyList<double> Elision,
    IReadOnlyDictionary<int, IReadOnlyList<ParallelRunSample>> Parallel)
{
    /// <summary>The cgroup throttling during each T_s run, in the order of <see cref="Sequential"/>; null when not measured.</summary>
    public IReadOnlyList<ThrottlingSample?>? SequentialThrottling { get; init; }

    /// <summary>The cgroup throttling during each T_elision run, in the order of <see cref="Elision"/>; null when not measured.</summary>
    public IReadOnlyList<ThrottlingSample?>? ElisionThrottling { get; init; }
}
