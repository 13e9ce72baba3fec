namespace DivCon.Simulation.Validation;

/// <summary>One metric of one scheme of a workload: measured and simulated.</summary>
/// <param name="Workload">The workload.</param>
/// <param name="Scheme">The scheme.</param>
/// <param name="Metric"><c>ntt</c> (of <paramref name="Program"/>), <c>antt</c> or <c>stp</c>.</param>
/// <param name="Program">The program of an NTT, or null.</param>
/// <param name="Measured">Measured value, or null when the measured test recorded no run.</param>
/// <param name="Simulated">Simulated value, or null when the simulation recorded no run.</param>
/// <param name="RelativeError">(simulated − measured) / measured, or null.</param>
/// <param name="Target">The tolerance the issue sets (0.15 for NTT and ANTT at 2 cores), or null.</param>
/// <param name="Met">|error| ≤ target, or null without a target or a value.</param>
public sealed record CyclicComparison(
    string Workload, string Scheme, string Metric, string? Program, double? Measured, double? Simulated, double? RelativeError, double? Target, bool? Met);
