namespace DivCon.Metrics.Factored;

/// <summary>
/// The factored speedups of one program in isolation: the mean times (seconds) and one <see cref="FactoredPoint"/>
/// per core count, with the raw samples they were computed from.
/// </summary>
/// <param name="Program">The program's name.</param>
/// <param name="Ts">Mean T_s (sequential baseline).</param>
/// <param name="T1">Mean T_1 (the parallel program on one worker).</param>
/// <param name="Telision">Mean T_elision (granularity = problem size), or null when the program has none.</param>
/// <param name="Points">One per core count, ascending.</param>
/// <param name="Samples">The measured runs.</param>
public sealed record FactoredProgramResult(
    string Program,
    double Ts,
    double T1,
    double? Telision,
    IReadOnlyList<FactoredPoint> Points,
    FactoredSamples Samples);
