namespace DivCon.Harness.Cyclic;

/// <summary>One program alone in one invocation: its single-program runs and, when measured, its baselines.</summary>
/// <param name="Program">The program's name.</param>
/// <param name="WarmupSeconds">Single-program runs before the counted window (the warm-up), in order.</param>
/// <param name="SpSeconds">The counted window: C^SP is their mean.</param>
/// <param name="SteadyState">Whether the window met the CV threshold (false: the warm-up cap was reached first).</param>
/// <param name="SpCv">The window's coefficient of variation.</param>
/// <param name="SequentialWarmupSeconds">The sequential baseline's warm-up run(s), when measured.</param>
/// <param name="SequentialSeconds">The sequential baseline's timed runs (T_seq, T_s), when measured; else empty.</param>
/// <param name="OneWorkerSeconds">Runs on a 1-worker work-stealing scheduler (T_1), when measured; else empty.</param>
public sealed record InvocationProgram(
    string Program,
    IReadOnlyList<double> WarmupSeconds,
    IReadOnlyList<double> SpSeconds,
    bool SteadyState,
    double? SpCv,
    IReadOnlyList<double> SequentialWarmupSeconds,
    IReadOnlyList<double> SequentialSeconds,
    IReadOnlyList<double> OneWorkerSeconds)
{
    /// <summary>T_seq / mean C^SP of this invocation: the scalability its partitioned schemes used; null when T_seq was not measured.</summary>
    public double? Scalability => SequentialSeconds.Count > 0 && SpSeconds.Count > 0 ? SequentialSeconds.Average() / SpSeconds.Average() : null;
}
