namespace DivCon.Harness.Cyclic;

/// <summary>One scheme's multiprogram phase in one invocation.</summary>
/// <param name="Scheme">The scheme's name.</param>
/// <param name="Programs">Per program, in workload order: the recorded run durations (C^MP) and the runs discarded at the limit.</param>
/// <param name="LimitSeconds">The phase's time limit.</param>
/// <param name="WindowSeconds">
/// The statistics window (from just before the arrangement registered the programs to the first run stopped at the
/// limit): what per-program core and idle seconds are over.
/// </param>
/// <param name="Schedulers">What the scheme's schedulers reported at the end of the phase, per program.</param>
public sealed record InvocationScheme(
    string Scheme,
    IReadOnlyList<ProgramRuns> Programs,
    double LimitSeconds,
    double WindowSeconds,
    IReadOnlyList<SchedulerStats> Schedulers);
