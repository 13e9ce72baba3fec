namespace DivCon.Partitioning.Estimation;

/// <summary>
/// A program's estimated scalability with how far to trust it, as <see cref="OnlineScalabilityEstimator"/> computed it
/// after its last observation (the model is in <c>docs/online-scalability.md</c>).
/// </summary>
/// <param name="HasEstimate">
/// False until the program has been observed on two or more cores for long enough: on one core idle time says
/// nothing about parallelism. The other fields are then 0 (speedups 1).
/// </param>
/// <param name="Scalability">
/// Estimated speedup on all the estimator's cores, T_1 / T_N (self-relative: the one-core time of the parallel
/// program, not of a sequential version): what <see cref="ProgramLoad.Scalability"/> means.
/// </param>
/// <param name="SpeedupAtCurrent">Estimated speedup at <paramref name="CurrentCores"/>.</param>
/// <param name="CurrentCores">The core count the program was observed at most (its usual allocation).</param>
/// <param name="SerialFraction">The Amdahl serial fraction the idle time implies at the full machine, in [0, 1].</param>
/// <param name="InflationPerCore">
/// Work inflation per added core φ: busy time per task grows as 1 + φ·(P − 1). 0 while <paramref name="InflationSeparated"/> is false.
/// </param>
/// <param name="InflationSeparated">
/// Whether the program was seen at two allocations with enough tasks to compare busy time per task; until then the
/// estimate ignores work inflation, so it is an upper bound (the idle-time-specific speedup).
/// </param>
/// <param name="RelativeError">Approximate 95 % half-width of <paramref name="Scalability"/>, relative to it (∞ without an estimate).</param>
/// <param name="Confidence">
/// 1 − <paramref name="RelativeError"/> / <see cref="ScalabilityEstimatorOptions.MaxRelativeError"/>, clamped to
/// [0, 1], and at most <see cref="ScalabilityEstimatorOptions.UnseparatedConfidenceCap"/> while inflation is not separated.
/// </param>
/// <param name="Observations">Effective number of ticks behind the estimate (after forgetting).</param>
/// <param name="Allocations">How many distinct core counts have data.</param>
public readonly record struct ScalabilityEstimate(
    bool HasEstimate,
    double Scalability,
    double SpeedupAtCurrent,
    int CurrentCores,
    double SerialFraction,
    double InflationPerCore,
    bool InflationSeparated,
    double RelativeError,
    double Confidence,
    double Observations,
    int Allocations);
