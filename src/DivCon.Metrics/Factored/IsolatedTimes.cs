namespace DivCon.Metrics.Factored;

/// <summary>A program's isolated mean times for the multiprogram decomposition, seconds; null when not measured.</summary>
/// <param name="Sequential">T_s.</param>
/// <param name="OneWorker">T_1 (the parallel program on a 1-worker scheduler).</param>
/// <param name="Elision">T_elision.</param>
public sealed record IsolatedTimes(double? Sequential, double? OneWorker, double? Elision);
